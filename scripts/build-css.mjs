#!/usr/bin/env node
// Builds dist/styles.css (`ayah-coach/styles.css`): Tailwind's CLI, then the same PostCSS pass Vite runs;
// and dist/katex.css, KaTeX's stylesheet scoped for embedding (see scopedKatex).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import postcss from 'postcss';

import outrankHost from './postcss-outrank-host.js';
import scopeTailwindProperties from './postcss-scope-tailwind.js';

const out = 'dist/styles.css';
mkdirSync('dist', { recursive: true });
execFileSync('npx', ['tailwindcss', '-i', 'src/styles.css', '-o', out, '--minify'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
const result = await postcss([scopeTailwindProperties(), outrankHost()]).process(
  readFileSync(out, 'utf8'),
  {
    from: out,
    to: out,
  },
);
writeFileSync(out, result.css);
console.log(`${out}: ${(result.css.length / 1024).toFixed(1)} kB`);

/**
 * KaTeX's stylesheet, as the built package imports it (the chunks' `katex/dist/katex.min.css` import is
 * pointed here: tsup leaves dependencies' imports as they are): its one rule outside its own classes, `body { counter-reset: katexEqnNo mmlEqnNo }`, would
 * change a portal's page, so it is scoped to the Ayah root; and the fonts come with it in woff2 only
 * (every browser the package supports reads it), so the package carries 20 font files, not 60.
 */
const KATEX_IMPORT = "'katex/dist/katex.min.css'";

function scopedKatex() {
  const katexDir = path.dirname(createRequire(import.meta.url).resolve('katex/dist/katex.min.css'));
  const source = readFileSync(path.join(katexDir, 'katex.min.css'), 'utf8');
  const global = 'body{counter-reset:katexEqnNo mmlEqnNo}';
  if (!source.includes(global))
    throw new Error(`katex.min.css no longer has ${global}: look again`);
  const scoped = source
    .replace(global, '.ayah{counter-reset:katexEqnNo mmlEqnNo}')
    // Each @font-face lists woff2, woff and ttf: keep the first.
    .replace(
      /(url\(fonts\/[^)]+\.woff2\) format\("woff2"\)),url\([^)]+\) format\("woff"\),url\([^)]+\) format\("truetype"\)/g,
      '$1',
    );
  // One ID above the host's selectors, like the main stylesheet, so that its scoped reset (lifted the
  // same way) does not outrank KaTeX's own rules.
  const css = postcss([outrankHost()]).process(scoped, { from: undefined }).css;
  if (/url\(fonts\/[^)]+\.(woff|ttf)\)/.test(css))
    throw new Error('katex.css still names woff or ttf fonts');
  writeFileSync('dist/katex.css', css);
  mkdirSync('dist/fonts', { recursive: true });
  for (const font of readdirSync(path.join(katexDir, 'fonts')).filter((f) =>
    f.endsWith('.woff2'),
  )) {
    copyFileSync(path.join(katexDir, 'fonts', font), path.join('dist/fonts', font));
  }
  const importing = readdirSync('dist').filter(
    (file) =>
      file.endsWith('.js') && readFileSync(path.join('dist', file), 'utf8').includes(KATEX_IMPORT),
  );
  if (importing.length === 0) throw new Error(`no chunk imports ${KATEX_IMPORT}: look again`);
  for (const file of importing) {
    const chunk = path.join('dist', file);
    writeFileSync(chunk, readFileSync(chunk, 'utf8').replaceAll(KATEX_IMPORT, "'./katex.css'"));
  }
  console.log(
    `dist/katex.css: ${(css.length / 1024).toFixed(1)} kB, with its woff2 fonts (${importing})`,
  );
}
scopedKatex();
