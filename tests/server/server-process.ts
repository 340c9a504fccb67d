/**
 * The real server as a separate process, built as `npm start` runs it (server-build-global-setup.ts),
 * on a data dir of the test's choosing: for what only a whole process shows, such as the data dir's
 * lock, its file modes, signals and a restart.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { inject } from 'vitest';

import { openDatabase } from '../../server/db';
import { insertSignedInUser } from './seed-user';

export const root = path.resolve(import.meta.dirname, '../..');
export const JWT_SECRET = 'a-test-secret-that-is-long-enough-for-hs256';

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Its exit code (or 1 when a signal ended it). */
  exited: Promise<number>;
  url: string;
}

/** Spawns the server on `dataDir`; resolves once it answers /health (or rejects with its output). */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  { waitReady = true } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [inject('ayahServerMain')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      AYAH_DATA_DIR: dataDir,
      AYAH_APP_DIR: path.join(dataDir, 'no-app'),
      AYAH_JWT_SECRET: JWT_SECRET,
      AYAH_GOAL_WRITE_LIMIT: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))),
  );
  const proc: ServerProcess = { child, output: () => output, exited, url: '' };
  if (!waitReady) return proc;
  const deadline = Date.now() + 150_000;
  for (;;) {
    const port = /listening on http:\/\/localhost:(\d+)/.exec(output)?.[1];
    if (port) {
      proc.url = `http://127.0.0.1:${port}`;
      return proc;
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Stops it with SIGTERM and answers its exit code. */
export async function stopServer(server: ServerProcess): Promise<number> {
  if (server.child.exitCode === null) server.child.kill('SIGTERM');
  return server.exited;
}

/** A verified user with a live session, written straight into the (not yet served) data dir. */
/** `count` signed-in users at once (each student has limits of their own, memory writes among them). */
export async function seedUsers(
  pgdata: string,
  count: number,
): Promise<{ id: string; token: string }[]> {
  const database = await openMigrated(pgdata);
  try {
    const secret = new TextEncoder().encode(JWT_SECRET);
    const stamp = Date.now();
    const users: { id: string; token: string }[] = [];
    for (let n = 0; n < count; n++) {
      const { id, token } = await insertSignedInUser(database, secret, {
        email: `proc-${stamp}-${n}@example.com`,
        displayName: 'Pat',
        lastLogin: new Date(),
      });
      users.push({ id, token });
    }
    return users;
  } finally {
    await database.close();
  }
}

/**
 * The embedded database at `pgdata`, migrated. A new one starts from the server project's migrated
 * image (pglite-global-setup.ts) rather than a new cluster and every migration: about 3 s on a
 * 2-core runner instead of 5–9. `migrate()` still runs (a no-op when nothing is new).
 */
export async function openMigrated(pgdata: string) {
  const image = existsSync(pgdata) ? '' : inject('ayahPgliteImage');
  const database = await openDatabase({
    dataDir: pgdata,
    ...(image && { image: readFileSync(image) }),
  });
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
