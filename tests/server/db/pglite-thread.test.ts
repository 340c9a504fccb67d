/**
 * PGlite in a worker thread (server/db/pglite-thread.ts), the default for the embedded database:
 * statements run beside the event loop, and what the server relies on still holds across the thread —
 * transactions commit or roll back whole (savepoints too), PostgreSQL's error codes arrive intact (a
 * unique violation, a serialization failure that `transaction` retries), a NOTIFY is heard before
 * the answer of the statement that sent it, and a thread that dies makes every call fail at once and
 * the health check answer 503, never a request that waits for ever. PGlite only.
 */
import { readFileSync } from 'node:fs';

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import type { Database } from '../../../server/db';
import {
  inOrder,
  openDatabase,
  pgErrorCode,
  transaction,
  UNIQUE_VIOLATION,
} from '../../../server/db';
import type { PgliteThread } from '../../../server/db/pglite-thread';
import { PgliteThreadError } from '../../../server/db/pglite-thread';
import type { Loose } from '../harness';
import { onPostgres, useTestServer } from '../harness';

/** The driver's error under drizzle's "Failed query" wrapper. */
const causeOf = (error: unknown) => (error as { cause?: unknown }).cause;

const threadOf = (database: Database) =>
  (database.db as unknown as { $client: PgliteThread }).$client;

describe.skipIf(onPostgres)('PGlite in a worker thread', () => {
  const server = useTestServer();
  let database: Database;
  const count = async (table: string) =>
    ((await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as Loose)
      .rows[0].n as number;

  beforeAll(async () => {
    database = server.database;
    await database.db.execute(sql`create table thread_t (id int primary key, note text)`);
  });

  it('is what the server runs on by default', () => {
    expect(threadOf(database).worker).toBeDefined();
    expect(threadOf(database).failure).toBeNull();
  });

  it('starts from the TypeScript sources through tsx, as scripts and benches run by tsx do', async () => {
    // Every other thread of these tests starts from the run's build (built-workers.ts).
    const built = process.env.AYAH_WORKER_DIR;
    delete process.env.AYAH_WORKER_DIR;
    let fromSources: Database | undefined;
    try {
      const image = new Uint8Array(readFileSync(inject('ayahPgliteImage')));
      fromSources = await openDatabase({ dataDir: null, image });
      expect(threadOf(fromSources).worker).toBeDefined();
      const { rows } = (await fromSources.db.execute(
        sql`select count(*)::int as n from users`,
      )) as Loose;
      expect(rows[0].n).toBe(0);
    } finally {
      if (built !== undefined) process.env.AYAH_WORKER_DIR = built;
      await fromSources?.close();
    }
  });

  it('keeps the event loop turning while a long statement runs, and counts it as busy', async () => {
    const busyBefore = database.threadBusyMs()!;
    const startedAt = performance.now();
    let done = false;
    const long = database.db
      .execute(sql`select count(*) from generate_series(1, 3000000) a, generate_series(1, 2) b`)
      .then(() => (done = true));
    // On the main thread the statement ran in one synchronous stretch: no timer fired until it ended.
    let turns = 0;
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      turns++;
    }
    await long;
    expect(turns).toBeGreaterThan(5);
    // The thread's busy time grew by the statement's run, and by no more than the wall time it took.
    const busy = database.threadBusyMs()! - busyBefore;
    expect(busy).toBeGreaterThan(20);
    expect(busy).toBeLessThanOrEqual(performance.now() - startedAt + 1);
  });

  it('rolls back a whole transaction when its function throws', async () => {
    await expect(
      transaction(database.db, async (tx) => {
        await tx.execute(sql`insert into thread_t values (1, 'rolled back')`);
        expect(await tx.execute(sql`select * from thread_t where id = 1`)).toMatchObject({
          rows: [{ note: 'rolled back' }],
        });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await count('thread_t')).toBe(0);
  });

  it('rolls back a nested transaction alone, and commits the outer one', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_t values (2, 'outer')`);
      await expect(
        tx.transaction(async (inner) => {
          await inner.execute(sql`insert into thread_t values (3, 'inner')`);
          throw new Error('inner only');
        }),
      ).rejects.toThrow('inner only');
    });
    const ids = await database.db.execute(sql`select id from thread_t order by id`);
    expect((ids as Loose).rows).toEqual([{ id: 2 }]);
  });

  it('keeps PostgreSQL error codes, and rolls back the transaction a failed statement was in', async () => {
    const failed = await transaction(database.db, async (tx) => {
      await tx.execute(sql`insert into thread_t values (4, 'first')`);
      await tx.execute(sql`insert into thread_t values (2, 'duplicate')`);
    }).catch((error: unknown) => error);
    expect(pgErrorCode(failed)).toBe(UNIQUE_VIOLATION);
    expect((failed as { cause?: { constraint?: string } }).cause?.constraint).toBe('thread_t_pkey');
    expect(await count('thread_t')).toBe(1);
  });

  it('retries a serialization failure (40001), as it arrives from the thread', async () => {
    let attempts = 0;
    const answer = await transaction(database.db, async (tx) => {
      attempts++;
      await tx.execute(sql`insert into thread_t values (5, 'retried')`);
      if (attempts === 1)
        await tx.execute(
          sql.raw(`do $$ begin raise exception 'try again' using errcode = '40001'; end $$`),
        );
      return 'stored';
    });
    expect({ answer, attempts }).toEqual({ answer: 'stored', attempts: 2 });
    expect(await count('thread_t where id = 5')).toBe(1);
  });

  it("opens a transaction with its first statement, and a failed first statement's stays aborted", async () => {
    const thread = threadOf(database);
    const post = thread.worker.postMessage;
    const sent: Loose[] = [];
    thread.worker.postMessage = function (this: unknown, message: Loose, ...rest: unknown[]) {
      sent.push(message);
      return post.call(this, message, ...(rest as []));
    } as typeof post;
    try {
      // A transaction that sends nothing costs the thread nothing.
      expect(await transaction(database.db, async () => 'nothing to do')).toBe('nothing to do');
      expect(sent).toEqual([]);
      // Its first statement opens it; its later ones and its end name it.
      await transaction(database.db, async (tx) => {
        await tx.execute(sql`insert into thread_t values (30, 'opened')`);
        await tx.execute(sql`update thread_t set note = 'kept' where id = 30`);
      });
      expect(sent.map((m) => [m.op, m.begin ? 'opens' : m.tx === sent[0]!.id])).toEqual([
        ['query', 'opens'],
        ['query', true],
        ['end', true],
      ]);
      // A first statement that fails: its error, and the transaction it opened refuses the rest
      // (25P02) until it is rolled back, as PostgreSQL does; nothing of it is kept.
      const codes: (string | undefined)[] = [];
      const committing = transaction(database.db, async (tx) => {
        for (const statement of [
          sql`insert into thread_t values (30, 'a duplicate')`,
          sql`insert into thread_t values (31, 'after the failure')`,
        ])
          await tx.execute(statement).catch((error: unknown) => codes.push(pgErrorCode(error)));
      });
      // Its commit is a rollback, and says so.
      await expect(committing).rejects.toThrow('Transaction was rolled back instead of committed');
      expect(codes).toEqual([UNIQUE_VIOLATION, '25P02']);
      expect(await count('thread_t where id = 31')).toBe(0);
      // Two first statements at once: one opens the transaction, the other joins it, sent at
      // once, not after the opening's answer (its id is the opening call's, known from the start:
      // PGlite runs one transaction at a time, and sat idle while this thread took its turn).
      sent.length = 0;
      let sentAtFirstAnswer: number | undefined;
      const firstAnswer = () => (sentAtFirstAnswer ??= sent.filter((m) => m.op === 'query').length);
      thread.worker.prependListener('message', firstAnswer);
      await expect(
        transaction(database.db, async (tx) => {
          await Promise.all([
            tx.execute(sql`insert into thread_t values (32, 'together')`),
            tx.execute(sql`insert into thread_t values (33, 'together')`),
          ]);
          throw new Error('both go');
        }),
      ).rejects.toThrow('both go');
      expect(await count('thread_t where id in (32, 33)')).toBe(0);
      const [opening, joining] = sent.filter((m) => m.op === 'query');
      expect(opening!.begin).toBeDefined();
      expect(joining).toMatchObject({ tx: opening!.id });
      expect(joining!.begin).toBeUndefined();
      thread.worker.off('message', firstAnswer);
      expect(sentAtFirstAnswer).toBe(2);
    } finally {
      thread.worker.postMessage = post;
    }
  });

  it('commits in the thread after a statement that says so (commitWhen), and only then', async () => {
    const thread = threadOf(database);
    const post = thread.worker.postMessage;
    const ops: string[] = [];
    thread.worker.postMessage = function (this: unknown, message: Loose, ...rest: unknown[]) {
      ops.push(message.op);
      return post.call(this, message, ...(rest as []));
    } as typeof post;
    try {
      // The second statement says so: the thread commits after it, and no end is sent.
      await transaction(
        database.db,
        async (tx) => {
          await inOrder([
            () => tx.execute(sql`insert into thread_t values (40, 'early')`),
            () => tx.execute(sql`select true as commit_now`),
          ]);
        },
        { commitWhen: 'commit_now' },
      );
      expect(ops).toEqual(['query', 'query']);
      expect(await count('thread_t where id = 40')).toBe(1);
      // A statement that says no: the transaction waits for its end, and rolls back with it.
      ops.length = 0;
      await expect(
        transaction(
          database.db,
          async (tx) => {
            await tx.execute(sql`insert into thread_t values (41, 'not yet')`);
            await tx.execute(sql`select false as commit_now`);
            throw new Error('refused after all');
          },
          { commitWhen: 'commit_now' },
        ),
      ).rejects.toThrow('refused after all');
      expect(ops).toEqual(['query', 'query', 'end']);
      expect(await count('thread_t where id = 41')).toBe(0);
      // After a failed statement nothing commits, whatever a later one would say.
      const codes: (string | undefined)[] = [];
      await transaction(
        database.db,
        async (tx) => {
          for (const statement of [
            sql`insert into thread_t values (40, 'a duplicate')`,
            sql`insert into thread_t values (42, 'after it') returning true as commit_now`,
          ])
            await tx.execute(statement).catch((error: unknown) => codes.push(pgErrorCode(error)));
        },
        { commitWhen: 'commit_now' },
      ).catch(() => {});
      expect(codes).toEqual([UNIQUE_VIOLATION, '25P02']);
      expect(await count('thread_t where id = 42')).toBe(0);
      // Once committed, the transaction takes nothing more.
      const late = await transaction(
        database.db,
        async (tx) => {
          await tx.execute(
            sql`insert into thread_t values (43, 'kept') returning true as commit_now`,
          );
          await tx.execute(sql`insert into thread_t values (44, 'too late')`);
        },
        { commitWhen: 'commit_now' },
      ).catch((error: unknown) => error);
      expect((causeOf(late) as Error).message).toBe('The transaction has already ended.');
      expect(await count('thread_t where id in (43, 44)')).toBe(1);
    } finally {
      thread.worker.postMessage = post;
    }
  });

  it('hands a burst of answers over across turns of the event loop, in order', async () => {
    // 200 statements, whose answers queue while this thread is busy; each request they let go on
    // takes 0.5 ms: 100 ms in all, handed over 10 ms a turn (HAND_OVER_MS) with timers between.
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setTimeout(tick, 0);
    };
    const turns = new Set<number>();
    const answers = Array.from({ length: 200 }, (_, i) =>
      database.db.execute(sql`select ${i}::int as n`).then((result) => {
        turns.add(turn);
        const end = performance.now() + 0.5;
        while (performance.now() < end);
        return (result as Loose).rows[0].n as number;
      }),
    );
    const end = performance.now() + 300;
    while (performance.now() < end);
    setTimeout(tick, 0);
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    ticking = false;
    expect(turns.size).toBeGreaterThanOrEqual(5);
  });

  it('runs a statement from outside after an open transaction, never inside it', async () => {
    let outside: Promise<number> | undefined;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_t values (6, 'in a transaction')`);
      outside = count('thread_t where id = 6');
      // Whatever the main thread does meanwhile, the outside statement waits for the commit.
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tx.execute(sql`update thread_t set note = 'committed' where id = 6`);
    });
    expect(await outside).toBe(1);
  });

  it('hears a NOTIFY before the answer of the statement that sent it', async () => {
    const heard: string[] = [];
    let live = false;
    database.notifications.listen('thread_probe', {
      notify: (payload) => heard.push(payload),
      live: (isLive) => (live = isLive),
    });
    await expect.poll(() => live).toBe(true);
    await database.db.execute(sql`select pg_notify('thread_probe', 'one')`);
    expect(heard).toEqual(['one']);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify('thread_probe', 'at commit')`);
      expect(heard).toEqual(['one']); // not before the commit
    });
    expect(heard).toEqual(['one', 'at commit']);
  });

  it('fails a call whose parameter cannot cross the thread, and only that call', async () => {
    const thread = threadOf(database);
    await expect(thread.query('select $1::text as v', [() => 'a function'])).rejects.toThrow(
      /could not be cloned/,
    );
    expect((await thread.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('fails every call at once when its thread dies, and the health check says so', async () => {
    const thread = threadOf(database);
    expect((await server.get('/api/v1/health')).status).toBe(200);
    const errors: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.join(' '));
    try {
      let inFlight: Promise<unknown> | undefined;
      const open = database.db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into thread_t values (7, 'lost')`);
          // Started now (drizzle's query runs when first awaited), answered or failed once.
          inFlight = tx.execute(sql`select pg_sleep(5)`).then(
            () => 'answered',
            (e: unknown) => e,
          );
          await thread.worker.terminate();
          throw await inFlight;
        })
        .catch((error: unknown) => error);
      const error = await open;
      expect(error).toBeInstanceOf(Error);
      expect(pgErrorCode(error)).toBeUndefined();
      expect(causeOf(await inFlight)).toBeInstanceOf(PgliteThreadError);
      expect(thread.failure).toBeInstanceOf(PgliteThreadError);
      const later = await database.db.execute(sql`select 1`).catch((e: unknown) => e);
      expect(causeOf(later)).toBe(thread.failure);
      const health = await server.get('/api/v1/health');
      expect(health.status).toBe(503);
      expect(health.body).toEqual({ detail: 'Database unavailable' });
      expect(errors.join('\n')).toMatch(/\[db\] The embedded database stopped/);
    } finally {
      console.error = original;
    }
  });
});

describe.skipIf(onPostgres)('a PGlite thread that cannot start', () => {
  let opened: Database | undefined;
  afterAll(async () => {
    await opened?.close();
  });

  it('says why, instead of waiting', async () => {
    const image = new Uint8Array([0x1f, 0x8b, 1, 2, 3]);
    await expect(
      openDatabase({ dataDir: null, image }).then((database) => (opened = database)),
    ).rejects.toThrow();
  });
});
