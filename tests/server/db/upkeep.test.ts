/**
 * The embedded database's upkeep (server/db/upkeep.ts): PGlite has no autovacuum, so the server
 * vacuums and analyzes the tables past autovacuum's default thresholds, and only those; an updated
 * table's GIN index then stops growing; what is due waits for the database to be quiet (or overdue),
 * and nothing runs on PostgreSQL. PGlite only (PostgreSQL's autovacuum does this there).
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';

import { type Database, openDatabase } from '../../../server/db';
import { flushStatistics, keepUp, startDatabaseUpkeep, tablesDue } from '../../../server/db/upkeep';
import type { Loose } from '../harness';
import { onPostgres, useTestServer } from '../harness';

describe.skipIf(onPostgres)('the embedded database’s upkeep', () => {
  const server = useTestServer();
  let db: Database['db'];
  const logger = { info: vi.fn(), error: vi.fn() };
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as Loose).rows as Loose[];

  beforeAll(async () => {
    db = server.database.db;
    // Twenty search chunks under a trigram index, as the chat's (fastupdate off: no pending list).
    for (const table of ['upkeep_chunks', 'upkeep_started']) {
      await db.execute(sql.raw(`create table ${table} (id int primary key, text text not null)`));
      await db.execute(
        sql.raw(
          `create index ${table}_trgm on ${table} using gin (text gin_trgm_ops) with (fastupdate = false)`,
        ),
      );
      await db.execute(sql.raw(`insert into ${table} select k, '' from generate_series(1, 20) k`));
    }
    await db.execute(sql`create table upkeep_quiet (id int primary key)`);
    await db.execute(sql`insert into upkeep_quiet values (0)`);
    await flushStatistics(db);
    // What the inserts above made due is done: each test starts from tables kept up.
    await keepUp(db, logger);
  });

  /** Appends to every chunk of `table` `times` times, as sends append to the chat's search chunks. */
  async function append(times: number, table = 'upkeep_chunks') {
    for (let i = 0; i < times; i++)
      await db.execute(
        sql.raw(`update ${table} set text = case when length(text) > 900 then '' else text end
          || ' question ${i} about fractions, volcanoes and the French revolution'`),
      );
    await flushStatistics(db);
  }

  const statsOf = async (table: string) =>
    (
      await rows(sql`select n_dead_tup::int as dead, last_vacuum is not null as vacuumed,
        last_analyze is not null as analyzed
        from pg_stat_user_tables where relname = ${table}`)
    )[0];
  const indexSize = async (index: string) =>
    Number((await rows(sql`select pg_relation_size(${index}::regclass) as n`))[0]!.n);

  it('vacuums and analyzes the tables past autovacuum’s thresholds, and only those', async () => {
    // 200 dead rows of 20: past 50 + 20 % of them.
    await append(10);
    const due = await tablesDue(db);
    expect(due).toContainEqual({ schema: 'public', table: 'upkeep_chunks', vacuum: true });
    expect(due.map((t) => t.table)).not.toContain('upkeep_quiet');

    expect(await keepUp(db, logger)).toEqual(due);
    expect(await statsOf('upkeep_chunks')).toEqual({ dead: 0, vacuumed: true, analyzed: true });
    // Nothing is left due, the catalogs the analyze wrote to included (pg_statistic never is).
    await flushStatistics(db);
    expect(await tablesDue(db)).toEqual([]);
  });

  it('analyzes, without vacuuming, a table whose rows changed but left no dead ones', async () => {
    const before = await statsOf('upkeep_quiet');
    // 100 rows in: past 50 + 10 % of the rows for an analyze, under 1,000 + 20 % for a vacuum.
    await db.execute(sql`insert into upkeep_quiet select k from generate_series(1, 100) k`);
    await flushStatistics(db);
    expect(await tablesDue(db)).toContainEqual({
      schema: 'public',
      table: 'upkeep_quiet',
      vacuum: false,
    });
    await keepUp(db, logger);
    expect(await statsOf('upkeep_quiet')).toEqual({ ...before, analyzed: true });
  });

  it('settles: never analyzes pg_statistic, which an analyze changes again (as autovacuum)', async () => {
    // Every table analyzed: hundreds of pg_statistic rows written, then kept up: nothing is left.
    await db.execute(sql`analyze`);
    await flushStatistics(db);
    await keepUp(db, logger);
    await flushStatistics(db);
    expect(await tablesDue(db)).toEqual([]);
  });

  it('keeps an updated table’s trigram index from growing', async () => {
    const index = 'upkeep_chunks_trgm';
    // Without upkeep, every rewrite leaves all the trigrams of the old row in the index.
    const unkept = [await indexSize(index)];
    for (let round = 0; round < 3; round++) {
      await append(10);
      unkept.push(await indexSize(index));
    }
    expect(unkept[3]).toBeGreaterThan(unkept[0]! * 1.5);

    await keepUp(db, logger);
    const kept: number[] = [];
    for (let round = 0; round < 4; round++) {
      await append(10);
      await keepUp(db, logger);
      kept.push(await indexSize(index));
    }
    // The space the vacuum freed takes the new entries: no bigger than before the first vacuum.
    expect(Math.max(...kept)).toBeLessThanOrEqual(unkept[3]!);
  });

  /** A statement every 20 ms until the answer is called: a lesson's sends, closer together. */
  function busy() {
    let going = true;
    const running = (async () => {
      while (going) {
        await db.execute(sql`select 1`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    return () => {
      going = false;
      return running;
    };
  }

  it('says how long the database has had nothing to do, 0 while it runs a statement', async () => {
    const sleeping = Promise.resolve(db.execute(sql`select pg_sleep(1)`));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.database.idleMs()).toBe(0);
    await sleeping;
    // Idle since the answer, not since the question a second ago.
    expect(server.database.idleMs()).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.database.idleMs()).toBeGreaterThanOrEqual(90);
  });

  it('says so on the main thread too (AYAH_PGLITE_WORKER=0), where a statement blocks it', async () => {
    const bare = await openDatabase({ dataDir: null, thread: false });
    try {
      await bare.db.execute(sql`select pg_sleep(0.6)`);
      expect(bare.idleMs()).toBeLessThan(300);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(bare.idleMs()).toBeGreaterThanOrEqual(90);
    } finally {
      await bare.close();
    }
  });

  it('stops a pass between tables when told to', async () => {
    await append(10);
    await append(10, 'upkeep_started');
    const due = (await tablesDue(db)).filter((t) => t.table.startsWith('upkeep_'));
    expect(due).toHaveLength(2);
    expect(await keepUp(db, logger, due, () => false)).toEqual(due.slice(0, 1));
    expect((await statsOf(due[1]!.table)).dead).toBeGreaterThan(0);
    await keepUp(db, logger);
  });

  it('keeps up what is due once the database is quiet, not while it is busy', async () => {
    await append(10, 'upkeep_started');
    const stopTraffic = busy();
    // Quiet after 1.5 s without a statement: the traffic's 20 ms apart, even on a loaded machine.
    const stop = startDatabaseUpkeep(server.database, logger, {
      checkMs: 50,
      quietMs: 1_500,
      overdueMs: 60_000,
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect((await statsOf('upkeep_started')).dead).toBeGreaterThan(0);
      await stopTraffic();
      await vi.waitFor(async () => expect((await statsOf('upkeep_started')).dead).toBe(0), {
        timeout: 10_000,
        interval: 2_000,
      });
    } finally {
      await stopTraffic();
      await stop();
    }
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('keeps up a database that is never quiet once a table has been due long enough', async () => {
    await append(10, 'upkeep_started');
    const stopTraffic = busy();
    const stop = startDatabaseUpkeep(server.database, logger, {
      checkMs: 50,
      quietMs: 60_000,
      overdueMs: 1_500,
    });
    try {
      // Due, busy, and not yet overdue: left alone.
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect((await statsOf('upkeep_started')).dead).toBeGreaterThan(0);
      await vi.waitFor(async () => expect((await statsOf('upkeep_started')).dead).toBe(0), {
        timeout: 10_000,
      });
    } finally {
      await stopTraffic();
      await stop();
    }
  });

  it('does nothing on PostgreSQL, whose autovacuum keeps its tables', async () => {
    await append(10, 'upkeep_started');
    const stop = startDatabaseUpkeep({ kind: 'postgres', db, idleMs: () => null }, logger, {
      checkMs: 10,
      quietMs: 0,
      overdueMs: 0,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await stop();
    expect((await statsOf('upkeep_started')).dead).toBeGreaterThan(0);
  });
});
