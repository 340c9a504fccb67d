/**
 * `npm run bench:server`: what the server stack costs per request, in one run. A bare Hono app (one
 * JSON route) is the baseline; then GET /api/v1/health, GET /api/v1/auth/me with a valid token and
 * GET /api/v1/chat/sessions on the real app over PGlite (a data dir, as `npm start` runs) and over
 * PostgreSQL (`DATABASE_URL` as an admin URL, else a throwaway cluster like the server-pg tests).
 * Prints req/s, p50 and p99 and each route's ratio to bare Hono; the last line is
 * `me_pglite_ratio=<x> me_pg_ratio=<y> sessions_pg_ratio=<z>`.
 *
 *   npm run bench:server [-- --seconds 5 --connections 10]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import autocannon from 'autocannon';
import { Hono } from 'hono';
import pg from 'pg';
import type { Database } from '../../server/db';
import { openDatabase } from '../../server/db';
import { chatSessions } from '../../server/db/schema';
import { insertSignedInUser } from '../../tests/server/seed-user';
import startPostgres from '../../tests/server/pg-global-setup';
import { arg, serveApp } from '../support';

const SECONDS = arg('seconds', 5);
const CONNECTIONS = arg('connections', 10);

interface Figure {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(label: string, url: string, token?: string): Promise<Figure> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  // A short warm-up (JIT, connection pools, PGlite's caches), then the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const errors = result.errors + result.timeouts + result.non2xx;
  const figure = {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
  };
  console.log(
    `${label.padEnd(34)} ${figure.rps.toFixed(0).padStart(7)} req/s   p50 ${String(figure.p50).padStart(4)} ms   p99 ${String(figure.p99).padStart(4)} ms${errors ? `   ${errors} errors!` : ''}`,
  );
  return figure;
}

async function bareHono(): Promise<Figure> {
  const app = new Hono();
  app.get('/', (c) => c.json({ status: 'ok' }));
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    return await measure('bare Hono', url);
  } finally {
    server.close();
  }
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

async function routes(label: string, database: Database) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ayah-bench-'));
  await database.migrate();
  const app = await serveApp(database, dataDir);
  try {
    const token = await student(database, app.config.jwtSecret);
    return {
      health: await measure(`${label} GET /api/v1/health`, `${app.url}/api/v1/health`),
      me: await measure(`${label} GET /api/v1/auth/me`, `${app.url}/api/v1/auth/me`, token),
      sessions: await measure(
        `${label} GET /api/v1/chat/sessions`,
        `${app.url}/api/v1/chat/sessions`,
        token,
      ),
    };
  } finally {
    app.close();
    // Replies autocannon gave up on at its deadline are still running: let them end before the pool does.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** An admin URL of a PostgreSQL: DATABASE_URL, or a throwaway cluster (stopped by the answer's stop). */
async function postgres(): Promise<{ admin: string; stop: () => void }> {
  let admin = '';
  const project = { provide: (_key: string, value: string) => void (admin = value) };
  const stop = await startPostgres(project as never);
  if (!admin) throw new Error('no PostgreSQL for the benchmark (install it or set DATABASE_URL)');
  return { admin, stop: () => (typeof stop === 'function' ? stop() : undefined) };
}

async function main() {
  console.log(
    `bench:server: ${CONNECTIONS} connections, ${SECONDS} s a route (after 1 s of warm-up), Node ${process.version}\n`,
  );
  const bare = await bareHono();

  const pgliteDir = mkdtempSync(path.join(os.tmpdir(), 'ayah-bench-pglite-'));
  const pglite = await routes(
    'PGlite',
    await openDatabase({ dataDir: path.join(pgliteDir, 'pgdata') }),
  );
  rmSync(pgliteDir, { recursive: true, force: true });

  const cluster = await postgres();
  const name = `ayah_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: cluster.admin });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  let onPg;
  try {
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(cluster.admin);
    url.pathname = `/${name}`;
    onPg = await routes('PostgreSQL', await openDatabase({ url: url.toString() }));
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    cluster.stop();
  }

  const ratio = (f: Figure) => (f.rps / bare.rps).toFixed(3);
  console.log('\nratio to bare Hono (req/s):');
  for (const [db, figures] of [
    ['PGlite', pglite],
    ['PostgreSQL', onPg],
  ] as const) {
    console.log(
      `  ${db.padEnd(11)} health ${ratio(figures.health)}   me ${ratio(figures.me)}   sessions ${ratio(figures.sessions)}`,
    );
  }
  console.log(
    `me_pglite_ratio=${ratio(pglite.me)} me_pg_ratio=${ratio(onPg.me)} sessions_pg_ratio=${ratio(onPg.sessions)}`,
  );
}

main().catch((error: unknown) => {
  console.error('bench:server failed:', error);
  process.exit(1);
});
