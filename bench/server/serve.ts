/**
 * The server under test for `npm run bench:server`, in a process of its own (run.ts starts itself
 * with `--serve`): `bare` (a bare Hono app with one JSON route, the baseline) or `app` (the real app
 * over PGlite in `--data-dir`, or PostgreSQL at `--url`, with a signed-in student and 20 chat
 * sessions). Prints one JSON line `{url, token?}` once it listens, and closes (database too) and
 * exits 0 when its stdin ends or on SIGTERM, so that `node --cpu-prof` writes its profile.
 *
 *   node --import tsx bench/server/run.ts --serve bare
 *   node --import tsx bench/server/run.ts --serve app --data-dir /tmp/x | --url postgres://…
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

import { serve } from '@hono/node-server';
import { Hono } from 'hono';

import type { Database } from '../../server/db';
import { chatSessions } from '../../server/db/schema';
import { insertSignedInUser } from '../../tests/server/seed-user';
import { startServer } from '../support';

let args: string[] = [];
function option(name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
}

/** A signed-in student with a few chat sessions, and their access token. */
async function student(database: Database, jwtSecret: Uint8Array): Promise<string> {
  const { id, token } = await insertSignedInUser(database, jwtSecret, {
    email: `bench-${randomUUID()}@example.com`,
    displayName: 'Bench',
  });
  for (let i = 0; i < 20; i++) {
    await database.db.insert(chatSessions).values({ userId: id, title: `Fractions ${i}` });
  }
  return token;
}

async function bare(): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Hono();
  app.get('/', (c) => c.json({ status: 'ok' }));
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function real(): Promise<{ url: string; token: string; close(): Promise<void> }> {
  const url = option('url');
  const app = await startServer({
    database: url ? { url } : { dataDir: option('data-dir') ?? null },
    name: 'ayah-bench-app-',
    // Replies autocannon gave up on at its deadline are still running: let them end before the pool does.
    settleMs: 500,
  });
  const token = await student(app.database, app.config.jwtSecret);
  return { url: app.url, token, close: app.close };
}

/** Serves `argv` (`bare`, or `app` and its options) until stdin ends; see the header. */
export async function serveChild(argv: string[]): Promise<void> {
  args = argv;
  const server = argv[0] === 'bare' ? await bare() : await real();
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('bench server: close failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop).on('close', stop).resume();
  const { close: _close, ...shown } = server;
  process.stdout.write(`${JSON.stringify(shown)}\n`);
}
