/**
 * The published package: `npm run build` emits ESM with types and the stylesheet, the stylesheet is
 * scoped to Ayah's roots, the entry's static import graph carries none of the heavy parts (KaTeX,
 * ethers) that only some features load, on demand, and each feature's entry carries no other
 * feature's code (a portal embedding the goals widget loads no chat, markdown or wallet).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import postcss, { type AtRule, type Rule } from 'postcss';
import { beforeAll, describe, expect, test } from 'vitest';

import { dist, ensureBuilt, root, staticGraph } from '../built-package';

const HEAVY = ['katex', 'rehype-katex', 'remark-math', 'ethers'];

describe('npm run build', () => {
  beforeAll(ensureBuilt, 600_000);

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

const FEATURES = ['auth', 'chat', 'goals', 'wallet', 'settings', 'teacher', 'markdown'] as const;
/** What renders markdown and math: the chat's reply renderer, never a goal card's. */
const MARKDOWN = ['react-markdown', 'remark-gfm', 'remark-math', 'hast-util-to-jsx-runtime'];
const KATEX = ['katex', 'rehype-katex'];

/**
 * Per entry: the features whose code it may carry besides its own, and the packages it must not
 * import statically (a dynamic `import()` is fine: that part loads on demand).
 */
const PURITY: Record<string, { features: string[]; banned: string[] }> = {
  index: { features: [], banned: [...MARKDOWN, ...KATEX, 'ethers', 'xstate'] },
  auth: { features: [], banned: [...MARKDOWN, ...KATEX, 'ethers'] },
  // The chat loads the markdown renderer (its own entry) as it mounts, not up front.
  chat: { features: [], banned: [...MARKDOWN, ...KATEX, 'ethers'] },
  goals: { features: [], banned: [...MARKDOWN, ...KATEX, 'ethers'] },
  wallet: { features: [], banned: [...MARKDOWN, ...KATEX, 'ethers'] },
  settings: { features: [], banned: [...MARKDOWN, ...KATEX, 'ethers'] },
  teacher: { features: [], banned: [...MARKDOWN, ...KATEX, 'ethers'] },
  markdown: { features: [], banned: [...KATEX, 'ethers'] },
  // The spec's rules for the server and for portals: no React, nor the UI's class-name helpers.
  rules: {
    features: [],
    banned: [...MARKDOWN, ...KATEX, 'ethers', 'react', 'tailwind-merge', 'clsx'],
  },
};

/** The source files an entry loads up front, read from the source maps of its static chunks. */
function sourcesOf(entry: string): { sources: string[]; packages: string[] } {
  const { files, packages } = staticGraph(path.join(dist, `${entry}.js`));
  const sources = new Set<string>();
  for (const file of files) {
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) {
      sources.add(path.relative(root, path.resolve(path.dirname(file), source)));
    }
  }
  return { sources: [...sources], packages: [...packages] };
}

/** The feature a source file belongs to; a feature's wire seam (adapter, http) counts as none. */
function featureOf(source: string): string | null {
  const match = /^src\/([a-z]+)\/([^/]+)$/.exec(source.split(path.sep).join('/'));
  if (!match || !(FEATURES as readonly string[]).includes(match[1]!)) return null;
  // createHttpApi (the root entry) gathers every feature's <f>.http.ts: paths and bodies, no UI.
  if (/\.(adapter|http)\.ts$/.test(match[2]!)) return null;
  return match[1]!;
}

describe('each entry carries only its own feature', () => {
  beforeAll(ensureBuilt, 600_000);

  test.each(Object.entries(PURITY))('%s', (entry, { features, banned }) => {
    const { sources, packages } = sourcesOf(entry);
    const own = entry === 'rules' ? 'lib' : entry;
    const foreign = sources.filter((source) => {
      const feature = featureOf(source);
      return feature !== null && feature !== own && !features.includes(feature);
    });
    expect(foreign, `${entry} carries another feature's code`).toEqual([]);
    const heavy = packages.filter((p) => banned.some((b) => p === b || p.startsWith(`${b}/`)));
    expect(heavy, `${entry} imports these up front`).toEqual([]);
  });

  test('the walk sees what an entry really loads', () => {
    // Not vacuous: the graphs reach the entries' own sources and packages, and stop at dynamic
    // import() (the chat's markdown renderer, the renderer's KaTeX).
    const chat = sourcesOf('chat');
    expect(chat.sources).toContain(path.join('src', 'chat', 'Chat.tsx'));
    expect(chat.packages).toContain('xstate');
    const markdown = sourcesOf('markdown');
    expect(markdown.sources).toContain(path.join('src', 'markdown', 'Markdown.tsx'));
    expect(markdown.packages).toContain('react-markdown');
    const main = sourcesOf('index');
    expect(main.sources).toContain(path.join('src', 'chat', 'chat.http.ts'));
    expect(main.sources.filter((s) => featureOf(s) !== null)).toEqual([]);
  });
});
