#!/usr/bin/env node
/**
 * `npm run bench:bundle`: builds the app and prints, in gzip kB, the JavaScript a first visit to /auth
 * and to /assistant loads: the entry chunk, the route's lazy chunk, and everything either imports
 * statically (what the browser must fetch before the page can render). Dynamic imports (KaTeX when a
 * formula appears, ethers when the wallet is used) are not part of a first load.
 *
 * Then each public entry alone (bench/bundle/entries.mjs), in gzip kB without React, as a portal
 * embedding only that widget would ship it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { ENTRIES, measureEntry } from './entries.mjs';

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
const entries = {};
console.log('entries alone (minified, React external, dynamic imports not followed):');
for (const [name, file] of Object.entries(ENTRIES)) {
  entries[name] = await measureEntry(root, file);
  const top = [...entries[name].bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([what, bytes]) => `${what} ${(bytes / 1024).toFixed(0)}`)
    .join(', ');
  console.log(
    `  ${entries[name].kb.toFixed(1).padStart(6)} kB  ${name}${top ? `  (min kB: ${top})` : ''}`,
  );
}
const ethers =
  auth.ethers ||
  assistant.ethers ||
  ['chat', 'goals'].some((name) => entries[name].bytes.has('ethers'));
console.log(
  `auth_js_gzip_kb=${auth.kb.toFixed(1)} assistant_js_gzip_kb=${assistant.kb.toFixed(1)} chat_entry_gzip_kb=${entries.chat.kb.toFixed(1)} goals_entry_gzip_kb=${entries.goals.kb.toFixed(1)} teacher_entry_gzip_kb=${entries.teacher.kb.toFixed(1)} ethers_in_first_load=${ethers ? 'yes' : 'no'}`,
);
