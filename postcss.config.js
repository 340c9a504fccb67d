import outrankHost from './scripts/postcss-outrank-host.js';
import scopeTailwindProperties from './scripts/postcss-scope-tailwind.js';

// Applied by Vite (Storybook, tests, the app) after Tailwind, and by scripts/build-css.mjs for dist/.
export default { plugins: [scopeTailwindProperties(), outrankHost()] };
