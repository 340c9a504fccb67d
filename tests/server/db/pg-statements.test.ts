/**
 * Named prepared statements on PostgreSQL (server/db/pg-statements.ts): a pooled connection prepares
 * each statement with parameters once, under a name its text gives, and then only binds it; past its
 * cap it runs new texts unnamed; a statement whose result changed type fails once and then runs
 * unnamed, one the connection lost is prepared again; and `named: false` (AYAH_PG_NAMED=0) leaves
 * every statement unnamed, drizzle's own named ones too. The pool keeps its connections, and so
 * their statements, through a quiet spell. PostgreSQL only.
 */
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';

import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import { type Database, endPool, openDatabase, pgErrorCode } from '../../../server/db';
import { statementClient, statementName } from '../../../server/db/pg-statements';
import { users } from '../../../server/db/schema';
import { describeServer, freshPgDatabase, onPostgres } from '../harness';

(onPostgres ? describeServer : describe.skip)('named statements on PostgreSQL', () => {
  let url: string;
  let drop: () => Promise<void>;
  const opened: { close: () => Promise<void> }[] = [];

  beforeAll(async () => {
    // The migrated template: drizzle's statements read the users table.
    ({ url, drop } = await freshPgDatabase(inject('ayahPgTemplate')));
  });
  afterAll(async () => {
    for (const o of opened) await o.close();
    await drop?.();
  });

  /** A database of one connection, so that every statement runs on the one it asks about. */
  async function oneConnection(named?: boolean): Promise<Database> {
    const database = await openDatabase({ url, poolSize: 1, ...(named === false && { named }) });
    opened.push(database);
    return database;
  }

  /** A pool of one connection of pg's own, its client `statementClient(true, most)`. */
  function rawPool(most: number) {
    // Pipelined, as the server's pool is (db/index.ts).
    const pool = new pg.Pool({
      connectionString: url,
      max: 1,
      pipeline: true,
      Client: statementClient(true, most),
    } as pg.PoolConfig);
    opened.push({ close: () => endPool(pool) });
    return pool;
  }

  /** The statements the connection holds prepared, as PostgreSQL lists them. */
  async function held(run: (text: string) => Promise<{ rows: unknown[] }>) {
    const { rows } = await run('select name, statement from pg_prepared_statements order by name');
    return rows as { name: string; statement: string }[];
  }
  const heldBy = (database: Database) =>
    held(async (text) => ({ rows: rowsOf(await database.db.execute(sql.raw(text))) }));
  const rowsOf = (result: unknown) => (result as { rows: unknown[] }).rows;
  /** What of pg's client this file reads: its connection's socket. */
  type Sent = { connection: { stream: Socket } };

  it('prepares a statement with parameters once a connection, under its text’s name', async () => {
    const database = await oneConnection();
    for (const n of [1, 2, 3]) {
      const result = await database.db.execute(sql`select ${n}::int + 1 as n`);
      expect(rowsOf(result)).toEqual([{ n: n + 1 }]);
    }
    await database.db.execute(sql`select 41 + 1 as n`);
    const kept = await heldBy(database);
    const text = 'select $1::int + 1 as n';
    expect(kept).toEqual([{ name: statementName(text), statement: text }]);
    expect(statementName(text)).toMatch(/^ayah_[\w-]{24}$/);
  });

  it('runs the texts past its cap unnamed, the first ones still named', async () => {
    const pool = rawPool(2);
    for (const k of [1, 2, 3, 1, 3]) {
      const { rows } = await pool.query(`select $1::int * ${k} as n`, [7]);
      expect(rows).toEqual([{ n: 7 * k }]);
    }
    const kept = await held((text) => pool.query(text));
    expect(kept.map((s) => s.statement)).toEqual(
      // In the order PostgreSQL sorts their names (bytes).
      ['select $1::int * 1 as n', 'select $1::int * 2 as n'].sort((a, b) =>
        statementName(a) < statementName(b) ? -1 : 1,
      ),
    );
  });

  // A connection a transaction holds (`pool.connect()`) goes back to the pool after an error: a
  // failed `pool.query` would have dropped its connection, and the statement with it.
  it('fails once a statement whose result changed type, then runs it unnamed', async () => {
    const client = await rawPool(8).connect();
    try {
      await client.query('create table changing (id int primary key, v int)');
      await client.query('insert into changing values (1, 10)');
      const read = () => client.query('select * from changing where id = $1', [1]);
      expect((await read()).rows).toEqual([{ id: 1, v: 10 }]);
      await client.query('alter table changing alter column v type text');
      await expect(read()).rejects.toSatisfy((error) => pgErrorCode(error) === '0A000');
      expect((await read()).rows).toEqual([{ id: 1, v: '10' }]);
      expect((await read()).rows).toEqual([{ id: 1, v: '10' }]);
    } finally {
      client.release();
    }
  });

  it('prepares again a statement the connection lost', async () => {
    const client = await rawPool(8).connect();
    try {
      const read = () => client.query('select $1::text as said', ['hello']);
      expect((await read()).rows).toEqual([{ said: 'hello' }]);
      // As when a pooler hands the connection another server connection: the statement is gone.
      await client.query('deallocate all');
      await expect(read()).rejects.toSatisfy((error) => pgErrorCode(error) === '26000');
      expect((await read()).rows).toEqual([{ said: 'hello' }]);
      expect((await held((text) => client.query(text))).map((s) => s.statement)).toEqual([
        'select $1::text as said',
      ]);
    } finally {
      client.release();
    }
  });

  it('runs a statement unnamed after a value the client could not send', async () => {
    const client = await rawPool(8).connect();
    try {
      const read = (value: unknown) => client.query('select $1::jsonb as said', [value]);
      expect((await read({ a: 1 })).rows).toEqual([{ said: { a: 1 } }]);
      // pg closes the statement on the server when it cannot make a value (here, JSON of a cycle).
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      await expect(read(cycle)).rejects.toThrow(/circular/i);
      expect((await read({ b: 2 })).rows).toEqual([{ said: { b: 2 } }]);
    } finally {
      client.release();
    }
  });

  it('keeps its connections, and their statements, through a quiet spell', async () => {
    // pg-pool's own timer (setTimeout) would close a connection idle for 10 s: a minute passes.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const database = await openDatabase({ url, poolSize: 2 });
      opened.push(database);
      const pid = async () =>
        (
          rowsOf(
            await database.db.execute(sql`select pg_backend_pid() as pid, pg_sleep(${0.05})`),
          )[0] as { pid: number }
        ).pid;
      const before = new Set(await Promise.all([pid(), pid()]));
      expect(before.size).toBe(2);
      vi.advanceTimersByTime(60_000);
      // A connection the timer closed would be ended by now: a new one answers instead.
      await new Promise((resolve) => setImmediate(resolve));
      expect(new Set(await Promise.all([pid(), pid()]))).toEqual(before);
      // The statement made before the quiet spell is still prepared on them.
      const text = 'select pg_backend_pid() as pid, pg_sleep($1)';
      expect((await heldBy(database)).map((s) => s.statement)).toContain(text);
    } finally {
      vi.useRealTimers();
    }
  });

  // A database dropped after its pool ended would otherwise end a connection still closing: an
  // uncaught error (57P01) where nobody listens any more.
  it('has closed every connection by the time its pool has ended', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const sockets: Socket[] = [];
    pool.on('connect', (client) => sockets.push((client as unknown as Sent).connection.stream));
    await Promise.all([1, 2].map(() => pool.query('select pg_sleep(0.05)')));
    expect(sockets).toHaveLength(2);
    await endPool(pool);
    expect(sockets.map((socket) => socket.closed)).toEqual([true, true]);
  });

  /** A drizzle statement named by its caller (`.prepare(name)`), as the goals and sessions are. */
  const namedRead = (database: Database) =>
    database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .prepare('test_named_read')
      .execute({ id: randomUUID() });

  it('keeps the name a drizzle statement was given', async () => {
    const database = await oneConnection();
    expect(await namedRead(database)).toEqual([]);
    expect((await heldBy(database)).map((s) => s.name)).toEqual(['test_named_read']);
  });

  it('leaves every statement unnamed when told, drizzle’s named ones too', async () => {
    const database = await oneConnection(false);
    const result = await database.db.execute(sql`select ${5}::int + 1 as n`);
    expect(rowsOf(result)).toEqual([{ n: 6 }]);
    expect(await namedRead(database)).toEqual([]);
    expect(await heldBy(database)).toEqual([]);
  });
});
