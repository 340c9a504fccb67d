/**
 * Two server processes on one PostgreSQL (the scale-out README promises): 200 concurrent conversions of
 * one balance spread over both succeed exactly as far as the balance goes, and a burst of wrong
 * passwords spread over both is evaluated exactly the account threshold's number of times, and a
 * sign-out on one ends the session on the other (each keeps live sessions in memory). Only in the
 * server-pg project: PGlite is one process's by design (its data dir is locked).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { hashPassword } from '../../../server/auth/passwords';
import { DEFAULT_AUTH } from '../../../server/config';
import type { Database } from '../../../server/db';
import { openDatabase } from '../../../server/db';
import { conversions, pointsLedger } from '../../../server/db/schema';
import { freshPgDatabase, onPostgres } from '../harness';
import { insertSignedInUser } from '../seed-user';
import type { ServerProcess } from '../server-process';
import { JWT_SECRET, startServer, stopServer } from '../server-process';

const available = onPostgres && !!inject('ayahPgUrl');
const PASSWORD = 'Blue-Kettle-42';
/** Each server's pool (AYAH_PG_POOL), below the default 10 that a burst of 100 sends each would fill. */
const POOL = 3;
/** The test's own connections, told apart from the servers' in pg_stat_activity. */
const TEST_APP = 'two-servers-test';

describe.skipIf(!available)('two servers on one PostgreSQL', () => {
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  let database: Database;
  let drop = async () => {};
  let student: { id: string; email: string; token: string };

  beforeAll(async () => {
    const fresh = await freshPgDatabase();
    drop = fresh.drop;
    const own = new URL(fresh.url);
    own.searchParams.set('application_name', TEST_APP);
    database = await openDatabase({ url: own.toString(), poolSize: 4 });
    await database.migrate();
    student = await insertSignedInUser(database, new TextEncoder().encode(JWT_SECRET), {
      email: `two-servers-${Date.now()}@example.com`,
      displayName: 'Two',
      passwordHash: await hashPassword(PASSWORD),
    });
    // Both start at once, as replicas do (migrations queue on an advisory lock).
    const started = await Promise.all(
      [0, 1].map(() => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-two-'));
        dirs.push(dir);
        return startServer(dir, { DATABASE_URL: fresh.url, AYAH_PG_POOL: String(POOL) });
      }),
    );
    servers.push(...started);
  }, 300_000);

  afterAll(async () => {
    for (const server of servers) await stopServer(server);
    await database?.close();
    await drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const on = (i: number) => servers[i % servers.length]!;

  it(
    'converts exactly what the balance affords, across both servers',
    { timeout: 120_000 },
    async () => {
      await database.db.insert(pointsLedger).values({
        userId: student.id,
        amount: 10_000,
        type: 'earned',
        category: 'test',
        description: 'Test grant',
      });
      const replies = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          fetch(`${on(i).url}/api/v1/web3-tokens/convert-points-to-finu`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${student.token}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ points: 100 }),
          }).then(async (r) => ({ status: r.status, server: i % 2, body: await r.json() })),
        ),
      );
      const ok = replies.filter((r) => r.status === 201);
      expect(ok).toHaveLength(100);
      // Both servers did some of the work.
      expect(new Set(ok.map((r) => r.server)).size).toBe(2);
      const refused = replies.filter((r) => r.status !== 201);
      expect(refused.every((r) => r.status === 400)).toBe(true);
      expect(new Set(refused.map((r) => r.body.detail))).toEqual(
        new Set(['Not enough points for this conversion']),
      );

      const [ledger] = await database.db
        .select({ sum: sql<string>`coalesce(sum(${pointsLedger.amount}), 0)` })
        .from(pointsLedger)
        .where(eq(pointsLedger.userId, student.id));
      expect(Number(ledger!.sum)).toBe(0);
      const [done] = await database.db
        .select({ n: sql<string>`count(*)` })
        .from(conversions)
        .where(eq(conversions.userId, student.id));
      expect(Number(done!.n)).toBe(100);
      // 100 sends at once on each server, and each held to its AYAH_PG_POOL connections (and the
      // one that listens for sign-outs). Clients only: an autovacuum worker on these fresh tables
      // is PostgreSQL's own.
      const { rows } = (await database.db.execute(
        sql`select pid, application_name, backend_type, state from pg_stat_activity
            where datname = current_database() and backend_type = 'client backend'
              and application_name <> ${TEST_APP}`,
      )) as unknown as { rows: unknown[] };
      expect(rows.length, JSON.stringify(rows)).toBeGreaterThan(2);
      expect(rows.length, JSON.stringify(rows)).toBeLessThanOrEqual(2 * (POOL + 1));
      for (const server of servers) {
        const balance = await fetch(`${server.url}/api/v1/web3-tokens/finu-balance`, {
          headers: { authorization: `Bearer ${student.token}` },
        }).then((r) => r.json());
        expect(balance).toEqual({ points: 0, tokens: 1000 });
      }
    },
  );

  it(
    'ends a session on the other server too, within moments of its sign-out',
    { timeout: 60_000 },
    async () => {
      const leaving = await insertSignedInUser(database, new TextEncoder().encode(JWT_SECRET), {
        email: `two-servers-out-${Date.now()}@example.com`,
        displayName: 'Leaving',
      });
      const me = (i: number) =>
        fetch(`${on(i).url}/api/v1/auth/me`, {
          headers: { authorization: `Bearer ${leaving.token}` },
        }).then((r) => r.status);
      // Both servers have found the session live (and keep it in their session caches).
      for (let round = 0; round < 5; round++)
        expect([await me(0), await me(1)]).toEqual([200, 200]);

      const out = await fetch(`${on(0).url}/api/v1/auth/logout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${leaving.token}` },
      });
      expect(out.status).toBe(200);
      // The server that signed out refuses at once; the other as soon as it hears the announcement.
      expect(await me(0)).toBe(401);
      const signedOutAt = performance.now();
      await expect.poll(() => me(1), { interval: 5, timeout: 2_000 }).toBe(401);
      console.log(
        `the other server refused the session ${(performance.now() - signedOutAt).toFixed(1)} ms after the sign-out's answer`,
      );
    },
  );

  it('holds the login throttle across both servers', { timeout: 120_000 }, async () => {
    const login = (i: number, password: string) =>
      fetch(`${on(i).url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: student.email, password }),
      });
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(i, `Wrong-Guess-${i}`)),
    );
    const statuses = replies.map((r) => r.status);
    // Exactly the threshold's number of guesses were evaluated, wherever they arrived.
    expect(statuses.filter((s) => s === 401)).toHaveLength(DEFAULT_AUTH.throttle.account.threshold);
    expect(statuses.filter((s) => s === 429)).toHaveLength(
      30 - DEFAULT_AUTH.throttle.account.threshold,
    );
    // The lock holds on both, even for the right password.
    for (const i of [0, 1]) expect((await login(i, PASSWORD)).status).toBe(429);
  });
});
