/**
 * The product's build for the e2e files: `scripts/start.mjs` builds the app (dist-app/) and the server
 * (server/dist/) when they are missing or stale, as it starts. The e2e files run two at a time, so a
 * product starts holding START_LOCK (startProduct): only one builds, the others find both fresh.
 *
 * The e2e project's global setup builds first, in the background (`AYAH_BUILD_ONLY=1`), holding the
 * lock until done: in a whole run the e2e files come last, and the build (some 30 s of CPU on a clean
 * clone) is over long before, instead of holding both e2e workers at the start of the e2e group.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';

import { tryLock } from '../built-package';

const root = path.resolve(import.meta.dirname, '../..');
export const START_LOCK = path.join(root, '.tmp-product-start.lock');

/**
 * Starts the product's build holding START_LOCK, which it frees when the build ends (whether or not
 * it succeeds: a product start then builds again and says why it fails). Answers the teardown, which
 * stops a build still running. Does nothing while another run holds the lock.
 */
export function buildInBackground(): () => Promise<void> {
  // Held by another run, starting a product or building: its own starts build when needed.
  if (!tryLock(START_LOCK)) return async () => {};
  let build: ChildProcess;
  try {
    build = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
      cwd: root,
      env: { ...process.env, AYAH_BUILD_ONLY: '1' },
      stdio: 'ignore',
    });
  } catch (error) {
    rmSync(START_LOCK, { recursive: true, force: true });
    throw error;
  }
  const ended = new Promise<void>((resolve) =>
    build.once('close', () => {
      rmSync(START_LOCK, { recursive: true, force: true });
      resolve();
    }),
  );
  return async () => {
    if (build.exitCode === null && build.signalCode === null) build.kill('SIGTERM');
    await ended;
  };
}
