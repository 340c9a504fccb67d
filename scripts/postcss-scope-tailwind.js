/**
 * PostCSS plugin: keeps Tailwind's per-element custom properties inside Ayah's roots.
 *
 * Tailwind registers its internal variables (`--tw-shadow`, `--tw-ring-offset-width`, …) with global
 * `@property` rules, which give every element of the host page those properties too, and would clash
 * with a host that registers the same names differently. This turns the registrations into plain
 * declarations on `.ayah` and everything inside it (what Tailwind itself does where `@property` is not
 * supported), so the stylesheet adds nothing to the host's elements.
 */
const SCOPE = '.ayah, .ayah :where(*, ::before, ::after, ::backdrop)';

export default function scopeTailwindProperties() {
  return {
    postcssPlugin: 'ayah-scope-tailwind-properties',
    OnceExit(root, { rule, decl }) {
      const initial = new Map();
      root.walkAtRules('property', (at) => {
        const name = at.params.trim();
        let value = 'initial';
        at.walkDecls('initial-value', (d) => {
          value = d.value;
        });
        initial.set(name, value);
        at.remove();
      });
      // Tailwind's own fallback for browsers without @property: superseded by the scoped rule.
      root.walkAtRules('layer', (at) => {
        if (at.params.trim() === 'properties') at.remove();
      });
      if (initial.size === 0) return;
      const scoped = rule({ selector: SCOPE });
      for (const [prop, value] of initial) scoped.append(decl({ prop, value }));
      // Before every utility, which sets these variables at the same specificity and must win.
      const firstRule = root.nodes.find((node) => node.type === 'rule');
      if (firstRule) root.insertBefore(firstRule, scoped);
      else root.append(scoped);
    },
  };
}
scopeTailwindProperties.postcss = true;
