#!/usr/bin/env node
// `npm test`: the API contract, typecheck, lint, format check, the dependency layers, unused code, the
// built package (publint, attw), then every vitest project (unit, component, browser, stories, server),
// ending with one plain summary line: `tests: N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';

// Two lanes side by side, one a core: a lane's steps run in order, each printing its output once it
// ends. The API contract comes first in its lane, since the type check reads what it writes (the
// linters in the other lane read those files too, and it replaces them whole, never half-written).
// The lanes are balanced by what they took on a clean clone (CI, 2 cores): lint 66 s, format 26 s and
// dependencies 6 s in one; the contract 15 s, typecheck 41 s (TypeScript 7; 6 took 91), build 24 s
// (its declarations by TypeScript 7; 59 s before), package 12 s and unused 10 s in the other.
const lanes = [
  [
    ['lint', 'npx', ['eslint', '.', '--max-warnings=0']],
    ['format', 'npx', ['prettier', '--check', '--log-level=warn', '.']],
    // The declared layers and no import cycle (.dependency-cruiser.cjs says which and why).
    ['dependencies', 'npm', ['run', '--silent', 'lint:deps']],
  ],
  [
    // The server's OpenAPI document and the types generated from it, which the type check holds the
    // client's wire types against (tests/contract/wire.ts); then Redocly's recommended rules on it.
    ['contract', 'npx', ['tsx', 'scripts/openapi.ts']],
    ['openapi lint', 'npx', ['redocly', 'lint', 'tests/contract/openapi.json', '--format=summary']],
    // The whole tree, then each layer alone: the library without Node, the server without the DOM.
    ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
    // The package is built once, here: packed from a clean copy of the repo, whose `prepack` builds
    // it (tests/pack-package.ts). publint and attw check that build as a portal's installer would,
    // and the package tests (tests/built-package.ts) reuse its tarball and dist/ while they are newer
    // than their sources: the test of the packed package built it all again, 45 s of CPU.
    // (attw packs it with npm's scripts off: its `prepack` built it all again, 30 s of the 38.)
    ['build', 'npx', ['tsx', 'tests/pack-package.ts']],
    ['package', 'npm', ['run', '--silent', 'lint:package']],
    // No unused file, export or dependency (knip.jsonc writes down each exception and its reason).
    ['unused', 'npx', ['knip']],
  ],
];

/** Runs one step with its output kept, and prints it under the step's name when the step ends. */
function step([name, cmd, args]) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`\n== ${name} (${seconds} s)${output.trim() ? `\n${output.trimEnd()}` : ''}`);
      if (code !== 0) console.error(`\n${name} failed`);
      resolve(code ?? 1);
    });
  });
}

async function lane(steps) {
  for (const s of steps) {
    const code = await step(s);
    if (code !== 0) return code;
  }
  return 0;
}

const failure = (await Promise.all(lanes.map(lane))).find((code) => code !== 0);
if (failure) process.exit(failure);

mkdirSync('.test-results', { recursive: true });
const report = '.test-results/vitest.json';
console.log('\n== vitest');
const vitest = spawnSync(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
  { stdio: 'inherit' },
);

let passed = 0;
let failed = 0;
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests ?? 0;
  // Failed tests, and each file that failed without one (it would not load, say): a failed test's
  // file and describe blocks count as failed suites too, and would count it three times.
  const brokenFiles = (results.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' && !file.assertionResults?.some((t) => t.status === 'failed'),
  ).length;
  failed = (results.numFailedTests ?? 0) + brokenFiles;
}
const status = vitest.status ?? 1;
if (status !== 0 && failed === 0) failed = 1;
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(status !== 0 ? status : passed === 0 ? 1 : 0);
