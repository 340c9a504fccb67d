/**
 * PostCSS plugin: lifts every rule of Ayah's (and KaTeX's) stylesheet one ID above the host page's.
 *
 * A portal's global CSS is written without Ayah in mind: `textarea:focus {…}` (0,1,1) or `.card p {…}`
 * (0,1,1) outrank a scoped reset or a utility of one class (0,1,0). So each selector that starts with a
 * class (`.ayah …`, an `ay:` utility, `.katex …`) gets `:not(#\#)` after that class: it matches every
 * element (none has the id `#`) and adds (1,0,0), so a host's element, class and pseudo-class selectors
 * lose, while Ayah's own rules keep their order and specificity among themselves. Selectors that do not
 * start with a class (`:root` theme tokens, keyframe steps, the app's own `html, body`) are left alone.
 * Only `!important` and selectors with two IDs in the host's CSS still win: README, "Embedding".
 */
export const OUTRANK = ':not(#\\#)';

const LEADING_CLASS = /^\.(?:\\.|[\w-])+/;

export default function outrankHost() {
  return {
    postcssPlugin: 'ayah-outrank-host',
    // At the end, after Tailwind and the other plugins have added their rules.
    OnceExit(root) {
      root.walkRules((rule) => {
        const parent = rule.parent;
        if (parent?.type === 'atrule' && /keyframes$/.test(parent.name)) return;
        if (rule.selectors.every((s) => !LEADING_CLASS.test(s) || s.includes(OUTRANK))) return;
        rule.selectors = rule.selectors.map((selector) =>
          selector.includes(OUTRANK)
            ? selector
            : selector.replace(LEADING_CLASS, (leading) => `${leading}${OUTRANK}`),
        );
      });
    },
  };
}
outrankHost.postcss = true;
