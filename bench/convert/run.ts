/**
 * Concurrent conversions: one student with 10,000 points fires 200 conversions of 100 points at
 * once over HTTP; prints how many succeeded, the final balance and the ledger sum (they must agree:
 * 100 successes, 0 points). PGlite by default; `DATABASE_URL=postgres://… npx tsx bench/convert/run.ts`
 * runs it on PostgreSQL (in a fresh database it creates and drops).
 *
 *   npx tsx bench/convert/run.ts [--requests 200] [--points 10000]
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import { sql } from 'drizzle-orm';
import pg from 'pg';

import { signAccessToken } from '../../server/auth/tokens';
import type { DatabaseOptions } from '../../server/db';
import { authSessions, pointsLedger, users } from '../../server/db/schema';
import { arg, startServer } from '../support';

const REQUESTS = arg('requests', 200);
const POINTS = arg('points', 10_000);

async function open(): Promise<{
  database: DatabaseOptions;
  label: string;
  drop: () => Promise<void>;
}> {
  const admin = process.env.DATABASE_URL;
  if (!admin)
    return {
      database: { dataDir: null },
      label: 'PGlite',
      drop: async () => {},
    };
  const name = `ayah_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await run(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    database: { url: url.toString(), poolSize: 20 },
    label: 'PostgreSQL',
    drop: () => run(`drop database if exists ${name} with (force)`),
  };
}

async function main() {
  const { database, label, drop } = await open();
  const server = await startServer({ database, name: 'ayah-bench-convert-' });
  const { url, config } = server;
  const { db } = server.database;

  const [user] = await db
    .insert(users)
    .values({ email: 'bench@example.com', displayName: 'Bench' })
    .returning();
  const [session] = await db
    .insert(authSessions)
    .values({ userId: user!.id, expiresAt: new Date(Date.now() + 3_600_000) })
    .returning();
  await db.insert(pointsLedger).values({
    userId: user!.id,
    amount: POINTS,
    type: 'earned',
    category: 'bench',
    description: 'Bench grant',
  });
  const token = await signAccessToken(
    { sub: user!.id, sid: session!.id, tv: 0 },
    config.jwtSecret,
    new Date(),
    3600,
  );
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: REQUESTS }, () =>
      fetch(`${url}/api/v1/web3-tokens/convert-points-to-finu`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ points: 100 }),
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { transaction?: { status: string } },
      })),
    ),
  );
  const elapsed = performance.now() - started;
  const succeeded = statuses.filter(
    (s) => s.status === 201 && s.body.transaction?.status === 'success',
  ).length;
  const refused = statuses.filter((s) => s.status === 400).length;
  const other = statuses.length - succeeded - refused;
  const balance = (await (
    await fetch(`${url}/api/v1/web3-tokens/finu-balance`, { headers })
  ).json()) as {
    points: number;
    tokens: number;
  };
  const result = (await db.execute(
    sql`select coalesce(sum(amount), 0)::int as sum from points_ledger where user_id = ${user!.id}`,
  )) as { rows: { sum: number }[] };
  const ledgerSum = Number(result.rows[0]!.sum);

  await server.close();
  await drop();

  const expected = Math.min(REQUESTS, Math.floor(POINTS / 100));
  const agree =
    balance.points === ledgerSum &&
    succeeded === expected &&
    ledgerSum === POINTS - 100 * succeeded;
  console.log(
    `${label}: ${REQUESTS} concurrent conversions of 100 points from a balance of ${POINTS}, ${elapsed.toFixed(0)} ms`,
  );
  console.log(`succeeded ${succeeded} (expected ${expected}), refused ${refused}, other ${other}`);
  console.log(
    `final balance ${balance.points} points / ${balance.tokens} tokens; ledger sum ${ledgerSum}`,
  );
  console.log(
    agree ? 'balance, ledger and successes agree: yes' : 'balance, ledger and successes agree: NO',
  );
  if (!agree) process.exitCode = 1;
}

await main();
