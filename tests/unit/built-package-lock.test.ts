/**
 * The lock that test files (and npm test's build step) take around a build or a product start
 * (tests/built-package.ts): a holder that is still running is waited for however old its lock is,
 * one that is gone does not hold anyone up.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, expect, test } from 'vitest';

import { withLock } from '../built-package';

let dir: string;
let lock: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-lock-'));
  lock = path.join(dir, 'build.lock');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A lock directory as another process leaves it: its pid (if any), made `ageMs` ago. */
function heldBy(pid: number | null, ageMs: number) {
  mkdirSync(lock);
  if (pid !== null) writeFileSync(path.join(lock, 'pid'), String(pid));
  const then = new Date(Date.now() - ageMs);
  utimesSync(lock, then, then);
}

/** withLock does not run its work while the lock stays (a few of its checks), and does once it goes. */
async function expectWaitedFor() {
  let ran = false;
  const work = withLock(lock, () => (ran = true));
  await new Promise((r) => setTimeout(r, 1_200));
  expect(ran).toBe(false);
  rmSync(lock, { recursive: true });
  await work;
  expect(ran).toBe(true);
}

test('takes a free lock, writes its pid in it, and frees it after the work', async () => {
  const seen = await withLock(lock, () => ({
    held: existsSync(lock),
    pid: readFileSync(path.join(lock, 'pid'), 'utf8'),
  }));
  expect(seen).toEqual({ held: true, pid: String(process.pid) });
  expect(existsSync(lock)).toBe(false);
});

test('waits for a holder that is still running, however old its lock', async () => {
  heldBy(process.pid, 60 * 60_000);
  await expectWaitedFor();
});

test('clears at once a lock whose holder is gone', async () => {
  const gone = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
  heldBy(gone, 0);
  const started = Date.now();
  await withLock(lock, () => {});
  expect(Date.now() - started).toBeLessThan(5_000);
});

test('clears a lock without a pid once it is 5 minutes old, and not before', async () => {
  heldBy(null, 6 * 60_000);
  await withLock(lock, () => {});

  heldBy(null, 0);
  await expectWaitedFor();
});
