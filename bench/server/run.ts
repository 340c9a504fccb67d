/**
 * `npm run bench:server`: what the server stack costs per request, in one run. A bare Hono app (one
 * JSON route) is the baseline; then an API path no route matches (404, the stack before any query),
 * GET /api/v1/health, GET /api/v1/auth/me with a valid token and GET /api/v1/chat/sessions on the real
 * app over PGlite (a data dir, as `npm start` runs) and over PostgreSQL (`DATABASE_URL` as an admin
 * URL, else a throwaway cluster like the server-pg tests). Prints req/s, p50 and p99 and each route's
 * ratio to bare Hono; the last line is `me_pglite_ratio=<x> me_pg_ratio=<y> sessions_pg_ratio=<z>`.
 *
 * Every server under test, the bare baseline too, runs in a child process (serve.ts) and autocannon
 * here. In one process autocannon's own work shares the server's event loop, so every figure is
 * the client's cost plus the server's, which pulls all ratios towards 1 and hides what the stack
 * costs; apart, each side has a core of the two this machine has (PostgreSQL takes its share of them
 * on the PostgreSQL runs, as it would in production). Same conditions for the baseline and the app.
 * On a shared machine the figures move by tens of percent from run to run (bare Hono from 18,000 to
 * 36,000 req/s in one evening), so bare Hono is measured beside each database's runs and each ratio
 * uses the baseline measured beside it.
 *
 *   npm run bench:server [-- --seconds 5 --connections 10]
 *   npm run bench:server -- --profile profiles    # each server under `node --cpu-prof` (files there)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import autocannon from 'autocannon';
import pg from 'pg';

import startPostgres from '../../tests/server/pg-global-setup';
import { arg } from '../support';
import { serveChild } from './serve';

const SECONDS = arg('seconds', 5);
const CONNECTIONS = arg('connections', 10);
const profileAt = process.argv.indexOf('--profile');
const PROFILE_DIR =
  profileAt === -1 ? null : path.resolve(process.argv[profileAt + 1] ?? 'profiles');
const SELF = fileURLToPath(import.meta.url);

interface Figure {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(
  label: string,
  url: string,
  token?: string,
  expected: 'ok' | 'not found' = 'ok',
): Promise<Figure> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  // A short warm-up (JIT, connection pools, PGlite's caches), then the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  // A 404 is the answer asked for on the unmatched path; any other non-2xx is an error.
  const errors = result.errors + result.timeouts + (expected === 'ok' ? result.non2xx : 0);
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

interface Served {
  url: string;
  token?: string;
  stop(): Promise<void>;
}

/**
 * Starts this file with `--serve` (serve.ts) in a child process (`--profile dir`: under
 * `node --cpu-prof`) and reads its address.
 */
async function child(args: string[]): Promise<Served> {
  const profile = PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [];
  const proc: ChildProcess = spawn(
    process.execPath,
    [...profile, '--import', 'tsx', SELF, '--serve', ...args],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code) => resolve(code)),
  );
  const lines = createInterface({ input: proc.stdout! });
  const first = await Promise.race([
    new Promise<string>((resolve) => lines.once('line', resolve)),
    exited.then((code) => {
      throw new Error(`bench server exited (${code}) before listening`);
    }),
  ]);
  const shown = JSON.parse(first) as { url: string; token?: string };
  return {
    ...shown,
    stop: async () => {
      proc.stdin!.end();
      const code = await exited;
      if (code !== 0) throw new Error(`bench server exited with ${code}`);
    },
  };
}

async function bareHono(): Promise<Figure> {
  const server = await child(['bare']);
  try {
    return await measure('bare Hono', server.url);
  } finally {
    await server.stop();
  }
}

async function routes(label: string, args: string[], unmatched = false) {
  const app = await child(['app', ...args]);
  try {
    // The stack's own cost before any query: an API path no route matches (404).
    if (unmatched) {
      await measure(
        `${label} GET /api/v1/unmatched (404)`,
        `${app.url}/api/v1/unmatched`,
        app.token,
        'not found',
      );
    }
    return {
      health: await measure(`${label} GET /api/v1/health`, `${app.url}/api/v1/health`),
      me: await measure(`${label} GET /api/v1/auth/me`, `${app.url}/api/v1/auth/me`, app.token),
      sessions: await measure(
        `${label} GET /api/v1/chat/sessions`,
        `${app.url}/api/v1/chat/sessions`,
        app.token,
      ),
    };
  } finally {
    await app.stop();
  }
}

/** An admin URL of a PostgreSQL: DATABASE_URL, or a throwaway cluster (stopped by the answer's stop). */
async function postgres(): Promise<{ admin: string; stop: () => void }> {
  let admin = '';
  // The setup provides the admin URL, then the name of its migrated template database: keep the URL.
  const project = {
    provide: (key: string, value: string) => void (key === 'ayahPgUrl' && (admin = value)),
  };
  const stop = await startPostgres(project as never);
  if (!admin) throw new Error('no PostgreSQL for the benchmark (install it or set DATABASE_URL)');
  return { admin, stop: () => (typeof stop === 'function' ? stop() : undefined) };
}

async function main() {
  console.log(
    `bench:server: ${CONNECTIONS} connections, ${SECONDS} s a route (after 1 s of warm-up), Node ${process.version}\n`,
  );
  // The baseline is measured next to each database's runs, and each ratio uses the one beside it: on a
  // shared machine the load moves between the two halves of a run.
  const barePglite = await bareHono();
  const pgliteDir = mkdtempSync(path.join(os.tmpdir(), 'ayah-bench-pglite-'));
  let pglite;
  try {
    pglite = await routes('PGlite', ['--data-dir', path.join(pgliteDir, 'pgdata')], true);
  } finally {
    rmSync(pgliteDir, { recursive: true, force: true });
  }

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
  let barePg;
  try {
    barePg = await bareHono();
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(cluster.admin);
    url.pathname = `/${name}`;
    onPg = await routes('PostgreSQL', ['--url', url.toString()]);
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    cluster.stop();
  }

  const ratio = (f: Figure, bare: Figure) => (f.rps / bare.rps).toFixed(3);
  console.log('\nratio to bare Hono (req/s) measured beside them:');
  for (const [db, figures, bare] of [
    ['PGlite', pglite, barePglite],
    ['PostgreSQL', onPg, barePg],
  ] as const) {
    console.log(
      `  ${db.padEnd(11)} health ${ratio(figures.health, bare)}   me ${ratio(figures.me, bare)}   sessions ${ratio(figures.sessions, bare)}   (bare ${bare.rps.toFixed(0)} req/s)`,
    );
  }
  console.log(
    `me_pglite_ratio=${ratio(pglite.me, barePglite)} me_pg_ratio=${ratio(onPg.me, barePg)} sessions_pg_ratio=${ratio(onPg.sessions, barePg)}`,
  );
}

const serveAt = process.argv.indexOf('--serve');
(serveAt === -1 ? main() : serveChild(process.argv.slice(serveAt + 1))).catch((error: unknown) => {
  console.error(serveAt === -1 ? 'bench:server failed:' : 'bench server failed:', error);
  process.exit(1);
});
