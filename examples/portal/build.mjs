#!/usr/bin/env node
// Bundles the example portal's page (main.tsx) with esbuild into examples/portal/dist/, taking Ayah
// from the BUILT package: `ayah-coach` and `ayah-coach/*` resolve through package.json's `exports`
// onto dist/ (run `npm run build` first), exactly the files a portal installs; nothing from src/.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const outDir = path.join(here, 'dist');
const { exports } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/** `ayah-coach/chat` → the file package.json's exports name for it, under dist/. */
const builtPackage = {
  name: 'ayah-coach-built',
  setup(builder) {
    builder.onResolve({ filter: /^ayah-coach(\/.*)?$/ }, ({ path: specifier }) => {
      const subpath = '.' + specifier.slice('ayah-coach'.length);
      const target = exports[subpath];
      const file = typeof target === 'string' ? target : target?.import;
      if (!file) return { errors: [{ text: `ayah-coach does not export ${subpath}` }] };
      const resolved = path.join(root, file);
      if (!existsSync(resolved))
        return {
          errors: [{ text: `${file} is missing: build the package first (npm run build)` }],
        };
      return { path: resolved };
    });
  },
};

mkdirSync(outDir, { recursive: true });
await build({
  entryPoints: { portal: path.join(here, 'main.tsx') },
  outdir: outDir,
  bundle: true,
  format: 'esm',
  splitting: true,
  platform: 'browser',
  target: 'es2022',
  jsx: 'automatic',
  minify: true,
  sourcemap: true,
  logLevel: 'warning',
  // dist/ imports its shared chunks bare; the package declares them free of side effects, as they are.
  logOverride: { 'ignored-bare-import': 'silent' },
  define: { 'process.env.NODE_ENV': '"production"' },
  loader: { '.woff2': 'file', '.woff': 'file', '.ttf': 'file' },
  plugins: [builtPackage],
});
copyFileSync(path.join(here, 'hostile.css'), path.join(outDir, 'hostile.css'));
console.log(`[portal] built ${path.relative(process.cwd(), outDir) || outDir}`);
