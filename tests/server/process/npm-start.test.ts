/**
 * `npm start` as a supervisor runs it (issue 25, items 10 and 11): the start log names the portals
 * allowed and trusted, and a SIGTERM to the npm process (what `docker stop` or a service manager sends
 * to the process it started) stops the server gracefully instead of orphaning it with the data dir's
 * lock; and it runs the server with the Node flags of scripts/server-flags.mjs (issue 26). PGlite
 * only: one whole product process on a scratch data dir.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { SERVER_NODE_FLAGS } from '../../../scripts/server-flags.mjs';
import { lockFileOf } from '../../../server/db/data-dir';
import { withLock } from '../../built-package';
import { START_LOCK } from '../../e2e/product-build';
import { onPostgres } from '../harness';
import { JWT_SECRET, root } from '../server-process';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ayah-npm-start-'));
const pgdata = path.join(dataDir, 'pgdata');
const started: ChildProcess[] = [];

/** The pid of the server holding the data dir (its lock file says). */
const lockHolder = () =>
  (JSON.parse(readFileSync(lockFileOf(pgdata), 'utf8')) as { pid: number }).pid;

afterAll(() => {
  // Whatever a failed test left running: the process groups we started, and the lock's holder.
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (existsSync(lockFileOf(pgdata))) {
    try {
      process.kill(lockHolder(), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  url: string;
}

/**
 * Starts `command` in its own process group; resolves once the server says where it listens. Holds
 * the e2e products' start lock meanwhile: a start may build server/dist/, which the e2e project's
 * global setup may be building too in a run of both projects (tests/e2e/product-build.ts).
 */
function startProduct(command: string, args: string[]): Promise<Started> {
  return withLock(START_LOCK, () => startHeld(command, args));
}

async function startHeld(command: string, args: string[]): Promise<Started> {
  const child = spawn(command, args, {
    cwd: root,
    detached: true,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      AYAH_DATA_DIR: dataDir,
      AYAH_APP_DIR: path.join(dataDir, 'no-app'),
      AYAH_SKIP_BUILD: '1',
      AYAH_JWT_SECRET: JWT_SECRET,
      AYAH_ALLOWED_ORIGINS: 'https://portal.school.example, http://localhost:5173',
      AYAH_TRUSTED_ISSUERS: JSON.stringify([
        {
          issuer: 'https://portal.school.example',
          audience: 'https://ayah.school.example',
          jwks_url: 'http://127.0.0.1:9/.well-known/jwks.json',
        },
      ]),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // The first start may build the server (server/dist) first.
  const deadline = Date.now() + 200_000;
  for (;;) {
    const port = /listening on http:\/\/localhost:(\d+)/.exec(output)?.[1];
    if (port) return { child, output: () => output, exited, url: `http://127.0.0.1:${port}` };
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the product did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** True once nothing answers at `url` any more. */
async function stopsAnswering(url: string, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    try {
      await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(1000) });
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

describe.skipIf(onPostgres)('npm start under a supervisor', () => {
  it(
    'lists the allowed origins, the trusted issuers and the legal pages in its start log',
    { timeout: 300_000 },
    async () => {
      const product = await startProduct('npm', ['start']);
      // The server runs with the Node flags scripts/server-flags.mjs gives a server (Linux's view).
      const argv = readFileSync(`/proc/${lockHolder()}/cmdline`, 'utf8').split('\0');
      expect(argv.slice(1, 1 + SERVER_NODE_FLAGS.length)).toEqual(SERVER_NODE_FLAGS);
      expect(argv[1 + SERVER_NODE_FLAGS.length]).toMatch(/server\/dist\/main\.js$/);
      // The lines after "listening" are written in the same tick.
      await new Promise((r) => setTimeout(r, 200));
      const log = product.output();
      expect(log).toContain(
        'Portals allowed to call the API from a browser (AYAH_ALLOWED_ORIGINS): ' +
          'https://portal.school.example, http://localhost:5173',
      );
      expect(log).toContain(
        'Portal sign-in trusted (AYAH_TRUSTED_ISSUERS): https://portal.school.example for ' +
          'https://ayah.school.example (keys at http://127.0.0.1:9/.well-known/jwks.json)',
      );
      expect(log).toContain(`write terms.md and privacy.md (markdown) into ${dataDir}`);

      // A preflight from a portal that is not listed: a warning in the log, once.
      for (let i = 0; i < 3; i++) {
        const reply = await fetch(`${product.url}/api/v1/auth/me`, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://portal.school.exampel',
            'access-control-request-method': 'GET',
          },
        });
        expect(reply.headers.get('access-control-allow-origin')).toBeNull();
      }
      await new Promise((r) => setTimeout(r, 200));
      expect(
        product.output().match(/refused a browser call from "https:\/\/portal\.school\.exampel"/g),
      ).toHaveLength(1);

      // What `docker stop` or a service manager does to the process it started: SIGTERM to npm.
      product.child.kill('SIGTERM');
      expect(await product.exited).toBe(0);
      expect(product.output()).toContain('SIGTERM: shutting down');
      expect(product.output()).toContain('Stopped.');
      expect(await stopsAnswering(product.url, 5_000)).toBe(true);
      expect(existsSync(lockFileOf(pgdata))).toBe(false);
    },
  );

  it(
    'stops the server when the shell or runner above scripts/start.mjs dies without passing the signal on',
    { timeout: 300_000 },
    async () => {
      // A shell that runs start.mjs as its child (as npm's did): SIGTERM kills the shell alone.
      const product = await startProduct('sh', ['-c', 'node scripts/start.mjs; true']);
      product.child.kill('SIGTERM');
      await product.exited;
      expect(await stopsAnswering(product.url, 30_000)).toBe(true);
      // The server releases the data dir's lock, then prints "Stopped.": on a loaded machine the
      // line may reach this end of the pipe after the lock file is gone, so wait for both.
      const deadline = Date.now() + 30_000;
      while (
        (existsSync(lockFileOf(pgdata)) || !product.output().includes('Stopped.')) &&
        Date.now() < deadline
      ) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(product.output()).toContain('the process that started Ayah is gone');
      expect(product.output()).toContain('Stopped.');
      expect(existsSync(lockFileOf(pgdata))).toBe(false);
    },
  );
});
