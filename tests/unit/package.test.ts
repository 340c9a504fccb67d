/**
 * The published package: `npm run build` emits ESM with types and the stylesheet, the stylesheet is
 * scoped to Ayah's roots, and the entry's static import graph carries none of the heavy parts
 * (KaTeX, ethers) that only some features load, on demand.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import postcss, { type AtRule, type Rule } from 'postcss';
import { beforeAll, describe, expect, test } from 'vitest';
import { dist, ensureBuilt, root, staticGraph } from '../built-package';

const HEAVY = ['katex', 'rehype-katex', 'remark-math', 'ethers'];

describe('npm run build', () => {
  beforeAll(ensureBuilt, 240_000);

  test('emits every file the exports map names', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    const targets: string[] = [];
    const collect = (value: unknown) => {
      if (typeof value === 'string') targets.push(value);
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    collect(pkg.exports);
    expect(targets).toContain('./dist/index.js');
    expect(targets).toContain('./dist/index.d.ts');
    expect(targets).toContain('./dist/styles.css');
    for (const target of targets) expect(existsSync(path.join(root, target)), target).toBe(true);
    expect(pkg.peerDependencies).toMatchObject({
      react: expect.any(String),
      'react-dom': expect.any(String),
    });
    expect(pkg.dependencies?.react).toBeUndefined();
  });

  test('the stylesheet touches nothing outside .ayah roots', () => {
    const css = postcss.parse(readFileSync(path.join(dist, 'styles.css'), 'utf8'));
    const offenders: string[] = [];
    css.walkAtRules((at: AtRule) => {
      if (at.name === 'property') offenders.push(`@property ${at.params}`);
      if (at.name === 'keyframes' && !at.params.startsWith('ay-'))
        offenders.push(`@keyframes ${at.params}`);
      if (at.name === 'font-face') offenders.push('@font-face in the main stylesheet');
    });
    css.walkRules((rule: Rule) => {
      if (rule.parent?.type === 'atrule' && (rule.parent as AtRule).name === 'keyframes') return;
      const inTheme = (() => {
        for (let p: postcss.Node | postcss.Document | undefined = rule.parent; p; p = p.parent) {
          if (
            p.type === 'atrule' &&
            (p as AtRule).name === 'layer' &&
            (p as AtRule).params === 'theme'
          )
            return true;
        }
        return false;
      })();
      for (const selector of rule.selectors) {
        // The theme layer only declares --ay-* variables on :root, which restyle nothing.
        if (inTheme && /^(:root|:host)$/.test(selector)) {
          rule.walkDecls((d) => {
            if (!d.prop.startsWith('--ay-')) offenders.push(`${selector} { ${d.prop} }`);
          });
          continue;
        }
        // Everything else starts with a class: `.ayah …` or an `ay:` utility. (Tailwind's `space-*`
        // and `divide-*` start with `:where(…)`, have no specificity and lose to the scoped
        // preflight, so they cannot work inside Ayah: use flex or grid gaps.)
        if (!/^\.(ayah|ay\\:)/.test(selector)) offenders.push(selector);
      }
    });
    expect(offenders).toEqual([]);
  });

  test('the entry point loads no heavy dependency up front', () => {
    const { packages } = staticGraph(path.join(dist, 'index.js'));
    // Not vacuous: the walk does see the entry's real static imports.
    expect(packages).toContain('react/jsx-runtime');
    for (const heavy of HEAVY) {
      expect(
        [...packages].filter((p) => p === heavy || p.startsWith(`${heavy}/`)),
        heavy,
      ).toEqual([]);
    }
  });

  test('types are emitted for the public surface', () => {
    const types = readFileSync(path.join(dist, 'index.d.ts'), 'utf8');
    for (const name of ['createHttpApi', 'AyahRoot', 'Button', 'ApiError', 'Api']) {
      expect(types).toContain(name);
    }
  });
});
