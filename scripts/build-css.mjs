#!/usr/bin/env node
// Builds dist/styles.css (`ayah-coach/styles.css`): Tailwind's CLI, then the same PostCSS pass Vite runs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import postcss from 'postcss';
import scopeTailwindProperties from './postcss-scope-tailwind.js';

const out = 'dist/styles.css';
mkdirSync('dist', { recursive: true });
execFileSync('npx', ['tailwindcss', '-i', 'src/styles.css', '-o', out, '--minify'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
const result = await postcss([scopeTailwindProperties()]).process(readFileSync(out, 'utf8'), {
  from: out,
  to: out,
});
writeFileSync(out, result.css);
console.log(`${out}: ${(result.css.length / 1024).toFixed(1)} kB`);
