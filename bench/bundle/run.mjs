#!/usr/bin/env node
/**
 * `npm run bench:bundle`: builds the app and prints, in gzip kB, the JavaScript a first visit to /auth
 * and to /assistant loads: the entry chunk, the route's lazy chunk, and everything either imports
 * statically (what the browser must fetch before the page can render). Dynamic imports (KaTeX when a
 * formula appears, ethers when the wallet is used) are not part of a first load.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '../..');
const out = path.join(root, 'dist-app');

const build = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules/vite/bin/vite.js'),
    'build',
    '--config',
    'app/vite.config.ts',
    '--logLevel',
    'warn',
  ],
  { cwd: root, stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const manifest = JSON.parse(readFileSync(path.join(out, '.vite/manifest.json'), 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);

/** The chunk keys a first load of these chunks fetches: themselves and their static imports. */
function closure(keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return seen;
}

function routeKey(page) {
  const key = Object.keys(manifest).find((k) => k.endsWith(`pages/${page}.tsx`));
  if (!key) throw new Error(`no chunk for ${page}`);
  return key;
}

function measure(page) {
  const keys = closure([entryKey, routeKey(page)]);
  let gzip = 0;
  let ethers = false;
  const files = [];
  for (const key of keys) {
    const file = manifest[key].file;
    if (!file.endsWith('.js')) continue;
    const code = readFileSync(path.join(out, file));
    gzip += gzipSync(code, { level: 9 }).length;
    files.push(file);
    if (key.includes('node_modules/ethers/') || /\bBrowserProvider\b/.test(code.toString()))
      ethers = true;
  }
  return { kb: gzip / 1024, ethers, files };
}

const auth = measure('AuthPage');
const assistant = measure('AssistantPage');
for (const [name, result] of [
  ['/auth', auth],
  ['/assistant', assistant],
]) {
  console.log(`${name}: ${result.kb.toFixed(1)} kB gzip in ${result.files.length} files`);
  for (const file of result.files) {
    const size = gzipSync(readFileSync(path.join(out, file)), { level: 9 }).length / 1024;
    console.log(`  ${size.toFixed(1).padStart(6)} kB  ${file}`);
  }
}
console.log(
  `auth_js_gzip_kb=${auth.kb.toFixed(1)} assistant_js_gzip_kb=${assistant.kb.toFixed(1)} ethers_in_first_load=${auth.ethers || assistant.ethers ? 'yes' : 'no'}`,
);
