#!/usr/bin/env node
// `npm start`: builds the app into dist-app/ and the server into server/dist/ when either is missing or
// older than its sources, then runs the built server (plain node, no tsx), which serves the app and the
// API on one port. AYAH_BUILD_ONLY=1: build what is missing or stale, then exit without serving.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { compressDir } from './compress-assets.mjs';
import { SERVER_NODE_FLAGS } from './server-flags.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const appDir = path.join(root, 'app');
const outDir = path.join(root, 'dist-app');
const serverDir = path.join(root, 'server');
const CONFIG_NAMES = ['vite.config.ts', 'vite.config.mts', 'vite.config.js', 'vite.config.mjs'];

function viteConfig() {
  for (const dir of [appDir, root]) {
    for (const name of CONFIG_NAMES) {
      const file = path.join(dir, name);
      if (existsSync(file)) return file;
    }
  }
  return null;
}

/** The newest modification time under the given paths (skipping dependencies and outputs). */
function newest(paths) {
  let latest = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(p)) {
        if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
        walk(path.join(p, entry));
      }
    } else {
      latest = Math.max(latest, stat.mtimeMs);
    }
  };
  paths.forEach(walk);
  return latest;
}

function buildApp() {
  const config = viteConfig();
  if (!existsSync(path.join(appDir, 'index.html')) || !config) {
    console.log('[start] app/ has no index.html and vite config yet: skipping the app build.');
    return;
  }
  const built = path.join(outDir, 'index.html');
  const sources = [appDir, path.join(root, 'src'), config];
  if (existsSync(built) && statSync(built).mtimeMs >= newest(sources)) {
    console.log('[start] dist-app/ is up to date.');
    // A plain `vite build` (bench:bundle's) leaves it fresh but without the prerendered screens and
    // uncompressed: the server would then send every asset as it is, several times the bytes.
    const prerendered = readFileSync(built, 'utf8').includes('data-prerendered');
    if (!prerendered) prerender();
    if (!prerendered || !existsSync(`${built}.br`)) {
      console.log(`[start] ${compressDir(outDir)} assets precompressed (br, gz).`);
    }
    return;
  }
  console.log('[start] building the app into dist-app/ …');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const run = spawnSync(
    process.execPath,
    [
      vite,
      'build',
      appDir,
      '--config',
      config,
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--mode',
      'production',
    ],
    // Always the production build (a test runner's NODE_ENV=test would give React's development one).
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (run.status !== 0) {
    console.error('[start] the app build failed.');
    process.exit(run.status ?? 1);
  }
  prerender();
  console.log(`[start] ${compressDir(outDir)} assets precompressed (br, gz).`);
}

/** The first screens, prerendered into dist-app/index.html (scripts/prerender.mjs). */
function prerender() {
  const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'prerender.mjs'), outDir], {
    cwd: root,
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    console.error('[start] prerendering the first screens failed.');
    process.exit(run.status ?? 1);
  }
}

function buildServer() {
  const built = path.join(serverDir, 'dist', 'main.js');
  const sources = [serverDir, path.join(root, 'src', 'lib')];
  if (existsSync(built) && statSync(built).mtimeMs >= newest(sources)) return;
  console.log('[start] building the server into server/dist/ …');
  const run = spawnSync(process.execPath, [path.join(serverDir, 'build.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    console.error('[start] the server build failed.');
    process.exit(run.status ?? 1);
  }
}

/**
 * AYAH_DEMO_PORTAL=1: the example portal (examples/portal) embeds the BUILT package, so the library is
 * built into dist/ (tsup) and the portal's page bundled (esbuild) when either is missing or stale.
 */
function buildDemoPortal() {
  const run = (what, args) => {
    console.log(`[start] ${what} …`);
    const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) {
      console.error(`[start] ${what} failed.`);
      process.exit(result.status ?? 1);
    }
  };
  const library = path.join(root, 'dist', 'index.js');
  const librarySources = ['src', 'tsup.config.ts', 'package.json', 'scripts/build-css.mjs'];
  if (
    !existsSync(library) ||
    statSync(library).mtimeMs < newest(librarySources.map((p) => path.join(root, p)))
  ) {
    run('building the package into dist/', [
      path.join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js'),
      '--silent',
    ]);
  }
  const portalDir = path.join(root, 'examples', 'portal');
  const bundle = path.join(portalDir, 'dist', 'portal.js');
  const bundleSources = [
    path.join(portalDir, 'main.tsx'),
    path.join(portalDir, 'hostile.css'),
    path.join(portalDir, 'build.mjs'),
    library,
  ];
  if (!existsSync(bundle) || statSync(bundle).mtimeMs < newest(bundleSources)) {
    run('bundling the example portal', [path.join(portalDir, 'build.mjs')]);
  }
}

if (process.env.AYAH_SKIP_BUILD !== '1') buildApp();
if (process.env.AYAH_DEMO_PORTAL === '1') buildDemoPortal();
// The server is always built when stale: without it there is nothing to run.
buildServer();
if (process.env.AYAH_BUILD_ONLY === '1') process.exit(0);

console.log('[start] starting the server …');
const server = spawn(
  process.execPath,
  [...SERVER_NODE_FLAGS, path.join(serverDir, 'dist', 'main.js')],
  {
    cwd: root,
    stdio: 'inherit',
    env: { AYAH_APP_DIR: outDir, ...process.env },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
// A supervisor may signal a process above this one (`npm start`'s npm, or the shell npm runs us in),
// which dies without passing the signal on: this process is then handed to another parent, and the
// server must not keep answering and holding the data dir. Losing the parent counts as SIGTERM.
const parent = process.ppid;
const orphaned = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphaned);
  console.log('[start] the process that started Ayah is gone: stopping the server.');
  server.kill('SIGTERM');
}, 250);
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
