#!/usr/bin/env node
// `npm test`: the API contract, typecheck, lint, format check, the dependency layers, unused code, the
// built package (publint, attw), then every vitest project (unit, component, browser, stories, server),
// ending with one plain summary line: `tests: N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';

const steps = [
  // The server's OpenAPI document and the types generated from it, which the type check holds the
  // client's wire types against (tests/contract/wire.ts); then Redocly's recommended rules on it.
  ['contract', 'npx', ['tsx', 'scripts/openapi.ts']],
  ['openapi lint', 'npx', ['redocly', 'lint', 'tests/contract/openapi.json', '--format=summary']],
  ['typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['lint', 'npx', ['eslint', '.', '--max-warnings=0']],
  ['format', 'npx', ['prettier', '--check', '--log-level=warn', '.']],
  // The declared layers and no import cycle (.dependency-cruiser.cjs says which and why).
  ['dependencies', 'npm', ['run', '--silent', 'lint:deps']],
  // No unused file, export or dependency (knip.jsonc writes down each exception and its reason).
  ['unused', 'npx', ['knip']],
  // The package is built once, here: publint and attw check it as a portal's installer would, and
  // the package tests (tests/built-package.ts) reuse dist/ while it is newer than its sources.
  ['build', 'npx', ['tsup', '--silent']],
  ['package', 'npm', ['run', '--silent', 'lint:package']],
];

for (const [name, cmd, args] of steps) {
  console.log(`\n== ${name}`);
  const run = spawnSync(cmd, args, { stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`\n${name} failed`);
    process.exit(run.status ?? 1);
  }
}

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
  failed = (results.numFailedTests ?? 0) + (results.numFailedTestSuites ?? 0);
}
const status = vitest.status ?? 1;
if (status !== 0 && failed === 0) failed = 1;
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(status !== 0 ? status : passed === 0 ? 1 : 0);
