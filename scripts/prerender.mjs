#!/usr/bin/env node
// After `vite build` of the app: builds app/prerender.tsx for Node, renders the two prerendered
// screens (the sign-in screen, the signed-in shell) and writes them into dist-app/index.html (or the
// directory given) beside the empty root. The first-load script shows the one a visit needs before
// the first paint; main.tsx hydrates it (app/first-load.ts).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.resolve(process.argv[2] ?? path.join(root, 'dist-app'));
const ssrDir = path.join(root, 'node_modules', '.cache', 'ayah-prerender');

const build = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
    'build',
    '--config',
    path.join(root, 'app', 'vite.config.ts'),
    '--ssr',
    path.join(root, 'app', 'prerender.tsx'),
    '--outDir',
    ssrDir,
    '--emptyOutDir',
    '--mode',
    'production',
    '--logLevel',
    'warn',
  ],
  // The production React, as the browser gets (a test runner's NODE_ENV=test would give another).
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
);
if (build.status !== 0) {
  console.error('[prerender] the server build of app/prerender.tsx failed.');
  process.exit(build.status ?? 1);
}

process.env.NODE_ENV = 'production';
const { render } = await import(pathToFileURL(path.join(ssrDir, 'prerender.js')).href);
const screens = [];
for (const screen of ['out', 'in']) {
  const { html, header } = await render(screen);
  const slot = 'data-header-slot=""></div>';
  if (header && !html.includes(slot)) throw new Error('prerender: no header slot in the shell');
  screens.push(
    `<div data-prerendered="${screen}">${header ? html.replace(slot, `data-header-slot="">${header}</div>`) : html}</div>`,
  );
}

const indexFile = path.join(outDir, 'index.html');
const page = readFileSync(indexFile, 'utf8');
const empty = '<div id="root"></div>';
if (!page.includes(empty)) throw new Error(`prerender: no ${empty} in ${indexFile}`);
writeFileSync(indexFile, page.replace(empty, `${empty}${screens.join('')}`));
rmSync(ssrDir, { recursive: true, force: true });
console.log(
  `[prerender] ${screens.map((s) => `${Math.round(s.length / 1024)} kB`).join(' + ')} of HTML in ${indexFile}`,
);
