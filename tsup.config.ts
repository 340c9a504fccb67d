import { defineConfig } from 'tsup';

export default defineConfig({
  // One entry per feature (`ayah-coach/<feature>`), so a portal embedding one widget loads no other's code.
  entry: {
    index: 'src/index.ts',
    auth: 'src/auth/index.ts',
    chat: 'src/chat/index.ts',
    goals: 'src/goals/index.ts',
    wallet: 'src/wallet/index.ts',
    settings: 'src/settings/index.ts',
    teacher: 'src/teacher/index.ts',
    markdown: 'src/markdown/index.ts',
    rules: 'src/lib/index.ts',
  },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  // Keeps lazily imported parts (KaTeX, ethers) behind their own dynamic import() so that a portal
  // embedding only one widget does not load the others' heavy dependencies.
  splitting: true,
  treeshake: true,
  target: 'es2022',
  outDir: 'dist',
  external: ['react', 'react-dom', 'react/jsx-runtime'],
  // The stylesheet is compiled by Tailwind's CLI into dist/styles.css (`ayah-coach/styles.css`).
  onSuccess: 'node scripts/build-css.mjs',
});
