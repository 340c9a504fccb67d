/**
 * Issue 26 (a send's CPU): on PostgreSQL a transaction opens with its bounds (SET LOCAL lock_timeout
 * and statement_timeout, db/bounds.ts) in the same round trip as its `begin` — one simple-protocol
 * query — instead of a `set_config` statement of its own; PGlite, with one connection and no
 * statement timeout, goes without (nothing for them to bound). The bounds hold and end with the
 * transaction, a failed transaction rolls back and gives its connection back, and a send's
 * transaction is one statement shorter.
 */
import net from 'node:net';

import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';

import type { Database, Db, Tx } from '../../../server/db';
import { openDatabase, pgErrorCode, transaction, UNIQUE_VIOLATION } from '../../../server/db';
import { REQUEST_BOUNDS } from '../../../server/db/bounds';
import type { Column } from '../../../server/db/compiled';
import { compiled, compiledWith, jsonOf } from '../../../server/db/compiled';
import type { PgliteThread } from '../../../server/db/pglite-thread';
import type { HarnessOptions, Loose } from '../harness';
import { describeServer, freshPgDatabase, onPostgres, useTestServerWithModel } from '../harness';

const C = '/api/v1/chat';
// A model endpoint (its default reply), so that a send costs the server nothing of its own coach.
const options: HarnessOptions = {};
const { h } = useTestServerWithModel(options);

const say = (content: string, sessionId?: string) => ({
  messages: [{ role: 'user', content }],
  ...(sessionId ? { sessionId } : {}),
});

/**
 * A database of the pass's kind with one connection: PostgreSQL with a pool of one (a connection
 * not given back would hang the next transaction), or PGlite on the main thread (the harness's
 * runs in a thread), so both ways PGlite opens a transaction are tried.
 */
let single: Database;
let dropSingle = async () => {};
beforeAll(async () => {
  if (!onPostgres) {
    single = await openDatabase({ dataDir: null, thread: false });
  } else {
    const fresh = await freshPgDatabase();
    dropSingle = fresh.drop;
    single = await openDatabase({ url: fresh.url, poolSize: 1 });
  }
  await single.db.execute(sql`create table bounded_t (id int primary key, note text)`);
}, 60_000);
afterAll(async () => {
  await single?.close();
  await dropSingle();
});

type Settings = { lock: string; statement: string };
const settingsOf = async (q: Db | Tx): Promise<Settings> => {
  const { rows } = (await q.execute(sql`select current_setting('lock_timeout') as lock,
    current_setting('statement_timeout') as statement`)) as unknown as { rows: Settings[] };
  return rows[0]!;
};
const rowsOf = async (db: Db) =>
  ((await db.execute(sql`select id from bounded_t order by id`)) as Loose).rows.map(
    (r: { id: number }) => r.id,
  );

const NONE: Settings = { lock: '0', statement: '0' };

describeServer("a transaction's bounds", () => {
  it.runIf(onPostgres)(
    "holds them for itself alone (SET LOCAL): a request's, its own, or none",
    async () => {
      for (const { db } of [single, h.database]) {
        const bounds = REQUEST_BOUNDS;
        expect(await transaction(db, settingsOf, { bounds })).toEqual({
          lock: '3s',
          statement: '10s',
        });
        expect(
          await transaction(db, settingsOf, { bounds: { lockWaitMs: 15_000, statementMs: 250 } }),
        ).toEqual({ lock: '15s', statement: '250ms' });
        expect(await transaction(db, settingsOf)).toEqual(NONE);
        // Nested transactions (savepoints) run inside the same bounds.
        expect(await transaction(db, (tx) => tx.transaction(settingsOf), { bounds })).toEqual({
          lock: '3s',
          statement: '10s',
        });
      }
      // After it, on the same connection (the only one), nothing is left of them.
      expect(await settingsOf(single.db)).toEqual(NONE);
      // Only our own integers become SQL.
      await expect(
        transaction(single.db, settingsOf, { bounds: { ...REQUEST_BOUNDS, lockWaitMs: 1.5 } }),
      ).rejects.toThrow(RangeError);
      await expect(
        transaction(single.db, settingsOf, { bounds: { ...REQUEST_BOUNDS, statementMs: -1 } }),
      ).rejects.toThrow(RangeError);
    },
  );

  it.skipIf(onPostgres)(
    'costs PGlite nothing: no statement sets bounds its one connection cannot reach',
    async () => {
      // On the main thread and in the thread: the transaction runs, and no setting was made.
      for (const { db } of [single, h.database]) {
        expect(await transaction(db, settingsOf, { bounds: REQUEST_BOUNDS })).toEqual(NONE);
        expect(await transaction(db, settingsOf)).toEqual(NONE);
      }
    },
  );

  it('rolls back a failed transaction and gives its connection back, N+1 times on a pool of N', async () => {
    // A pool of one: a connection kept by a failed transaction would hang the next one for good.
    const failures = [
      // The function throws after a write.
      transaction(single.db, async (tx) => {
        await tx.execute(sql`insert into bounded_t values (1, 'thrown away')`);
        throw new Error('changed my mind');
      }),
      // A statement fails (a duplicate key) after a write.
      transaction(single.db, async (tx) => {
        await tx.execute(sql`insert into bounded_t values (2, 'first')`);
        await tx.execute(sql`insert into bounded_t values (2, 'again')`);
      }),
      // A nested transaction fails and the outer one throws it on.
      transaction(single.db, async (tx) => {
        await tx.execute(sql`insert into bounded_t values (3, 'outer')`);
        await tx.transaction(async (inner) => {
          await inner.execute(sql`insert into bounded_t values (4, 'inner')`);
          throw new Error('inner');
        });
      }),
    ];
    const outcomes = await Promise.allSettled(failures);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(pgErrorCode((outcomes[1] as PromiseRejectedResult).reason)).toBe('23505');
    expect(await rowsOf(single.db)).toEqual([]);
    await transaction(single.db, (tx) => tx.execute(sql`insert into bounded_t values (5, 'kept')`));
    expect(await rowsOf(single.db)).toEqual([5]);
  });

  // PGlite has one connection (no lock to wait on) and its WASM build fires no statement timeout.
  it.runIf(onPostgres)(
    'gives up on a row lock after its lock wait (55P03), and on a statement after its bound (57014)',
    { timeout: 30_000 },
    async () => {
      const { db } = h.database;
      await db.execute(sql`create table if not exists bounded_t (id int primary key, note text)`);
      await db.execute(sql`insert into bounded_t values (1, 'held') on conflict do nothing`);
      await db.transaction(async (holder) => {
        await holder.execute(sql`select id from bounded_t where id = 1 for update`);
        // Past the pool's 10 connections (one is the holder's): none is kept by a failed wait.
        for (let i = 0; i < 11; i++) {
          const waited = await transaction(
            db,
            (tx) => tx.execute(sql`update bounded_t set note = 'mine' where id = 1`),
            { bounds: { ...REQUEST_BOUNDS, lockWaitMs: 20 } },
          ).catch((error: unknown) => error);
          expect(pgErrorCode(waited)).toBe('55P03');
        }
      });
      // Without its bound the sleep would outlast the test's timeout.
      const cut = await transaction(db, (tx) => tx.execute(sql`select pg_sleep(60)`), {
        bounds: { ...REQUEST_BOUNDS, statementMs: 50 },
      }).catch((error: unknown) => error);
      expect(pgErrorCode(cut)).toBe('57014');
      expect(await transaction(db, settingsOf, { bounds: REQUEST_BOUNDS })).toEqual({
        lock: '3s',
        statement: '10s',
      });
    },
  );

  it('answers N+1 failing sends on a pool of N, then a good one', async () => {
    const owner = await h.user('Owner');
    const other = await h.user('Other');
    const { rows } = (await h.database.db.execute(sql`
      insert into chat_sessions (user_id, title, created_at, last_message_at)
      values (${owner.id}, 'Mine', now(), now()) returning id`)) as unknown as {
      rows: { id: string }[];
    };
    const theirs = rows[0]!.id;
    // Each fails inside the send's transaction (someone else's chat), after the rate-limit write.
    for (let i = 0; i < 11; i++) {
      expect((await h.as(other).post(`${C}/send`, say('let me in', theirs))).status).toBe(404);
    }
    expect((await h.as(other).post(`${C}/send`, say('my own chat'))).status).toBe(200);
  });
});

/**
 * The statements of the send's transactions as the database heard them: on PostgreSQL each query a
 * pooled client sent, by client; on PGlite each message to its thread, by transaction.
 */
function recordStatements() {
  const heard: { conn: unknown; text: string }[] = [];
  /** PGlite: each message to the thread, by the transaction it belongs to (or its own id). */
  const messages: unknown[] = [];
  if (onPostgres) {
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const query = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const [config] = args;
      heard.push({
        conn: this,
        text: typeof config === 'string' ? config : (config as { text: string }).text,
      });
      return query.apply(this, args);
    };
    return { heard, messages, stop: () => void (proto.query = query) };
  }
  const { worker } = (h.database.db as unknown as { $client: PgliteThread }).$client;
  const post = worker.postMessage;
  // A transaction the thread commits after a statement that says so (`commitWhen`): its answer.
  const txOfCall = new Map<number, number>();
  const committed = (message: Loose) => {
    if (message.type === 'answer' && message.result?.committed)
      heard.push({ conn: txOfCall.get(message.id), text: 'commit' });
  };
  worker.prependListener('message', committed);
  worker.postMessage = function (this: unknown, message: Loose, ...rest: unknown[]) {
    messages.push(message.tx ?? message.id);
    txOfCall.set(message.id, message.tx ?? message.id);
    if (message.begin) {
      // A transaction's first statement opens it, in the same message (its id is the call's).
      heard.push({ conn: message.id, text: 'begin' });
      heard.push({ conn: message.id, text: message.sql });
    } else if (message.op === 'end') {
      heard.push({ conn: message.tx, text: message.commit ? 'commit' : 'rollback' });
    } else if (message.tx) {
      heard.push({ conn: message.tx, text: message.sql });
    } else if (message.op === 'query' || message.op === 'exec') {
      heard.push({ conn: message.id, text: message.sql });
    }
    return post.call(this, message, ...(rest as []));
  } as typeof post;
  return {
    heard,
    messages,
    stop: () => {
      worker.postMessage = post;
      worker.off('message', committed);
    },
  };
}

/** Each transaction heard: its statements from its begin to its commit or rollback. */
function transactionsOf(heard: { conn: unknown; text: string }[]): string[][] {
  const open = new Map<unknown, string[]>();
  const done: string[][] = [];
  for (const { conn, text } of heard) {
    const trimmed = text.trim();
    if (/^begin\b/i.test(trimmed)) open.set(conn, [trimmed]);
    else if (open.has(conn)) {
      open.get(conn)!.push(trimmed);
      if (/^(commit|rollback)$/i.test(trimmed)) {
        done.push(open.get(conn)!);
        open.delete(conn);
      }
    }
  }
  return done;
}

describeServer("a send's transaction", () => {
  it('opens with its bounds in one round trip: four statements, not six', async () => {
    const user = await h.user('Counted');
    const api = h.as(user);
    const first = await api.post(`${C}/send`, say('What is half of 8?'));
    expect(first.status).toBe(200);
    const { heard, messages, stop } = recordStatements();
    let sent;
    try {
      sent = await api.post(`${C}/send`, say('And half of 6?', first.body.sessionId));
    } finally {
      stop();
    }
    expect(sent.status).toBe(200);
    const [question, reply, memory, ...rest] = transactionsOf(heard);
    expect(rest).toEqual([]);
    // Nothing else: the tutor's reads before the model (the week's goals, the recall) are columns of
    // the question's statement, not statements of their own.
    expect(heard).toHaveLength(question!.length + reply!.length + memory!.length);
    const begin = onPostgres
      ? "begin; select set_config('lock_timeout', '3000ms', true), " +
        "set_config('statement_timeout', '10000ms', true)"
      : 'begin';
    // begin (with its bounds on PostgreSQL), the user's lock and the rate limit, the question
    // stored in the student's session (whose row its update locks), commit.
    expect(question).toHaveLength(4);
    expect(question![0]).toBe(begin);
    expect(question![1]).toMatch(/^insert into "rate_limits".*for no key update/s);
    expect(question![2]).toMatch(
      /update "chat_sessions" cs .* and cs\.user_id = .*insert into "chat_messages"/s,
    );
    expect(question![2]).toMatch(/from "goals"\s+where .* as "goals".*to_tsquery.* as "recall"/s);
    expect(question![3]).toBe('commit');
    // The reply's, with its longer lock wait (on PostgreSQL): the user's and the session's locks,
    // then the reply (it was sent before the locks, the lock order user → session broken).
    expect(reply).toEqual([
      begin.replace('3000', '15000'),
      expect.stringMatching(/^select s\.id from .*for no key update.*for update of s$/s),
      expect.stringMatching(/^with s as \(\s*update "chat_sessions"/s),
      'commit',
    ]);
    // The learning memory the tutor keeps of the turn, without bounds: the user's lock and the
    // write's count, then the row (in place of the tutor's oldest when full), sent together.
    expect(memory).toEqual([
      'begin',
      expect.stringMatching(/^insert into "rate_limits".*for no key update/s),
      expect.stringMatching(
        /^with kept as .*delete from "learning_memories".*insert into "learning_memories"/s,
      ),
      'commit',
    ]);
    // On PGlite the begin rides with the first statement, and the question's statement commits
    // it (it says the send was taken, within the limit, with no award to write: `commitWhen`):
    // two messages to the thread, not four. The reply's and the memory's alike.
    if (!onPostgres) {
      const opened = [...new Set(heard.filter((s) => s.text === begin).map((s) => s.conn))];
      expect(opened.map((tx) => messages.filter((m) => m === tx).length)).toEqual([2, 2, 2]);
    }
    // No bound is a statement of its own anywhere.
    expect(heard.filter((s) => /set_config/.test(s.text) && !/^begin/.test(s.text))).toEqual([]);
  });
});

/**
 * A TCP proxy in front of PostgreSQL that counts round trips: a run of the client's bytes after
 * the server last spoke is one (what one write sends may arrive in pieces; a round trip never
 * does, as the server speaks between).
 */
async function countingProxy(target: string) {
  const { hostname, port } = new URL(target);
  let trips = 0;
  let serverSpokeLast = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (bytes) => {
      if (serverSpokeLast) trips++;
      serverSpokeLast = false;
      upstream.write(bytes);
    });
    upstream.on('data', (bytes) => {
      serverSpokeLast = true;
      client.write(bytes);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    /** Round trips since the last call. */
    take() {
      const n = trips;
      trips = 0;
      return n;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describeServer('a compiled statement', () => {
  it('runs with each run’s own values, on the database and in a transaction', async () => {
    // Rendered on its first run, whatever database that is on; then only filled.
    const add = compiled<'a' | 'b'>(
      (p) => sql`select ${p.a}::int + ${p.b}::int as sum, ${p.a}::text as a`,
    );
    const rows = (result: unknown) => (result as { rows: unknown[] }).rows;
    const { db } = h.database;
    expect(rows(await add(db, { a: 1, b: 2 }))).toEqual([{ sum: 3, a: '1' }]);
    expect(rows(await add(db, { a: 5, b: 7 }))).toEqual([{ sum: 12, a: '5' }]);
    const inside = await transaction(db, async (tx) => rows(await add(tx, { a: 2, b: 2 })));
    expect(inside).toEqual([{ sum: 4, a: '2' }]);
    await expect(add(db, { a: 1 } as never)).rejects.toThrow(/placeholder/i);
  });

  it("selects other reads' columns, each filled with its own values", async () => {
    const base = compiledWith<'a'>((p, extra) => sql`select ${p.a}::int as a${extra}`);
    // Each column names its placeholder `a` too: the statement's and theirs are apart.
    const twice: Column<number, 'a'> = {
      name: 'twice',
      sql: (p) => sql`${p.a}::int * 2`,
      values: { a: 5 },
      read: Number,
    };
    const upTo = (n: number): Column<number[], 'a'> => ({
      name: 'up_to',
      sql: (p) => sql`(select json_agg(x order by x) from generate_series(1, ${p.a}::int) x)`,
      values: { a: n },
      read: (value) => jsonOf(value) as number[],
    });
    const { db } = h.database;
    const first = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows[0]!;
    const both = await base(db, { a: 1 }, [twice, upTo(3)] as const);
    expect(first(both.result).a).toBe(1);
    const [doubled, counted] = both.read(first(both.result));
    expect(doubled).toBe(10);
    expect(counted).toEqual([1, 2, 3]);
    // The same columns with other values; the statement alone; one column, in a transaction.
    const again = await base(db, { a: 2 }, [twice, upTo(2)] as const);
    expect(again.read(first(again.result))).toEqual([10, [1, 2]]);
    const alone = await base(db, { a: 3 }, [] as const);
    expect(first(alone.result)).toEqual({ a: 3 });
    const inside = await transaction(db, async (tx) => {
      const { result, read } = await base(tx, { a: 4 }, [upTo(1)] as const);
      return [first(result).a, ...read(first(result))];
    });
    expect(inside).toEqual([4, [1]]);
  });
});

describeServer('a transaction on PostgreSQL', () => {
  // PGlite's thread has its own count (above); this is the wire.
  it.runIf(onPostgres)(
    'sends its begin with the statements it makes before it first waits: one round trip',
    async () => {
      const fresh = await freshPgDatabase();
      const proxy = await countingProxy(fresh.url);
      const proxied = await openDatabase({ url: proxy.url, poolSize: 1 });
      try {
        await proxied.db.execute(sql`create table piped_t (id int primary key)`);
        proxy.take();
        // begin + both inserts in one write, then the commit.
        await transaction(
          proxied.db,
          (tx) =>
            Promise.all([
              tx.execute(sql`insert into piped_t values (1)`),
              tx.execute(sql`insert into piped_t values (2)`),
            ]),
          { bounds: REQUEST_BOUNDS },
        );
        expect(proxy.take()).toBe(2);
        // A statement made after an answer is a round trip of its own.
        await transaction(proxied.db, async (tx) => {
          await tx.execute(sql`insert into piped_t values (3)`);
          await tx.execute(sql`insert into piped_t values (4)`);
        });
        expect(proxy.take()).toBe(3);
        // A failure in the first write rolls back all of it, and the connection is reused.
        const failed = await transaction(proxied.db, (tx) =>
          Promise.all([
            tx.execute(sql`insert into piped_t values (5)`),
            tx.execute(sql`insert into piped_t values (1)`),
          ]),
        ).catch((error: unknown) => error);
        expect(pgErrorCode(failed)).toBe(UNIQUE_VIOLATION);
        const { rows } = (await proxied.db.execute(
          sql`select id from piped_t order by id`,
        )) as unknown as { rows: { id: number }[] };
        expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4]);
      } finally {
        await proxied.close();
        await proxy.close();
        await fresh.drop();
      }
    },
  );

  it.runIf(onPostgres)(
    'sends them in one write, not one a statement: each write wakes the server',
    async () => {
      const fresh = await freshPgDatabase();
      const proxy = await countingProxy(fresh.url);
      const port = Number(new URL(proxy.url).port);
      const proxied = await openDatabase({ url: proxy.url, poolSize: 1 });
      // Node's one way down to a socket's handle (net.js): every write and writev passes here.
      type Writer = (this: net.Socket, ...args: unknown[]) => unknown;
      const socket = net.Socket.prototype as unknown as { _writeGeneric: Writer };
      const write = socket._writeGeneric;
      let writes = 0;
      socket._writeGeneric = function (this: net.Socket, ...args: unknown[]) {
        if (this.remotePort === port) writes++;
        return write.apply(this, args);
      };
      try {
        await proxied.db.execute(sql`create table piped_w (id int primary key)`);
        proxy.take();
        writes = 0;
        // Queries that start a microtask later, as drizzle's do when `Promise.all` or `inOrder`
        // resolves them, and one behind an await of its own, as a service's helper makes it.
        await transaction(
          proxied.db,
          (tx) =>
            Promise.all([
              tx.execute(sql`insert into piped_w values (1)`),
              (async () => {
                await Promise.resolve();
                return tx.execute(sql`insert into piped_w values (2)`);
              })(),
            ]),
          { bounds: REQUEST_BOUNDS },
        );
        // The begin and both inserts, then the commit.
        expect(writes).toBe(2);
        expect(proxy.take()).toBe(2);
      } finally {
        socket._writeGeneric = write;
        await proxied.close();
        await proxy.close();
        await fresh.drop();
      }
    },
  );
});
