/**
 * Opens the database: the embedded PGlite (persisted under the data dir, or in memory for tests) or a
 * real PostgreSQL through `pg` when a URL is given. Both speak the same drizzle API, and the same
 * checked-in migrations run on both.
 */
import { fileURLToPath } from 'node:url';

import type { Transaction as PgliteTx } from '@electric-sql/pglite';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite, PgliteSession, PgliteTransaction } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';

import type { Bounds } from './bounds';
import { boundsSql } from './bounds';
import { lockDataDir, secureDataDir } from './data-dir';
import type { Notifications } from './notifications';
import { pgliteNotifications, postgresNotifications } from './notifications';
import { namedByDefault, statementClient } from './pg-statements';
import { PGLITE_EXTENSIONS } from './pglite-extensions';
import { imageBlob } from './pglite-image';
import type { PgliteHandle, PgliteThread } from './pglite-thread';
import { asPglite, startPgliteThread } from './pglite-thread';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The handle inside `db.transaction(async (tx) => …)`; inside a transaction query only through it. */
export type Tx = Omit<Parameters<Parameters<Db['transaction']>[0]>[0], 'query'>;
export type Queryable = Db | Tx;

/** The rows of a raw statement (`db.execute`): node-postgres and PGlite both answer `{ rows }`. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (result as { rows?: T[] }).rows ?? [];
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Resolves once the database answers a query. */
  ping(): Promise<void>;
  migrate(): Promise<void>;
  /** `NOTIFY` as it is heard: each server's caches learn of changes committed anywhere. */
  notifications: Notifications;
  /**
   * PGlite: how long it has had no statement to run (0 while it runs one), so that its upkeep can
   * wait for a quiet spell (upkeep.ts). PostgreSQL: null (not known, nor needed).
   */
  idleMs(): number | null;
  /**
   * PGlite in its thread: how long that thread has been busy (its event loop's active time, ms)
   * since it started, for bench:class to say what a burst cost the database. Otherwise null.
   */
  threadBusyMs(): number | null;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

export type DatabaseOptions =
  | {
      url: string;
      poolSize?: number;
      /**
       * Each statement with parameters a named prepared statement (pg-statements.ts). On by
       * default; `AYAH_PG_NAMED=0` runs every statement unnamed.
       */
      named?: boolean;
    }
  /**
   * `dataDir: null` keeps PGlite in memory. `image` is the bytes of a dump of a data dir
   * (`dumpDataDir`) to start from instead of an empty cluster: the test harness starts each file's
   * database from one migrated image, a third of the time of a new cluster and its migrations. In
   * a thread, PGlite takes the bytes' buffer: the caller's is left detached.
   */
  | {
      dataDir: string | null;
      image?: Uint8Array<ArrayBuffer>;
      /**
       * PGlite in a worker thread of its own (pglite-thread.ts), so that its statements never block
       * the event loop. On by default; `AYAH_PGLITE_WORKER=0` runs it on the main thread.
       */
      thread?: boolean;
    };

/** Whether PGlite runs in a worker thread by default: unless `AYAH_PGLITE_WORKER=0`. */
const pgliteThreadByDefault = () => process.env.AYAH_PGLITE_WORKER !== '0';

// Any fixed number: serialises migrations when several servers start against one PostgreSQL.
const MIGRATION_LOCK = 7_245_113;

/** How long `endPool` waits for connections still closing (a server that never answers the close). */
const POOL_CLOSE_WAIT_MS = 5_000;

/**
 * Ends a pool, and waits until its connections have closed: pg-pool's `end` resolves once it has
 * asked them to close. A connection PostgreSQL ends while it is still closing (its database dropped,
 * as tests do after `close`) fails where nobody listens any more: an uncaught error. Each client the
 * pool holds when asked is waited for until it has ended (pg's `end` event; one that never
 * connected ends too), at most POOL_CLOSE_WAIT_MS.
 */
export async function endPool(pool: pg.Pool): Promise<void> {
  // pg-pool's own list (pg-pool 3): every client it made and has not yet let go, connecting or not.
  const clients = [...((pool as unknown as { _clients?: pg.Client[] })._clients ?? [])];
  const ended = clients.map(
    (client) =>
      new Promise<void>((resolve) => {
        if ((client as unknown as { _ended: boolean })._ended) resolve();
        else client.once('end', () => resolve());
      }),
  );
  await pool.end();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(ended),
    new Promise((resolve) => (timer = setTimeout(resolve, POOL_CLOSE_WAIT_MS).unref())),
  ]);
  clearTimeout(timer);
}

/**
 * PGlite on this thread behind the calls the server makes, saying how long it has been idle as its
 * thread does (pglite-thread.ts): 0 while a call runs, else the time since the last one ended.
 */
function timedPglite(pglite: PGlite): PgliteHandle & Pick<PgliteThread, 'idleMs'> {
  let running = 0;
  let lastActiveAt = performance.now();
  const timed = <T>(call: () => Promise<T>): Promise<T> => {
    running++;
    lastActiveAt = performance.now();
    return call().finally(() => {
      running--;
      lastActiveAt = performance.now();
    });
  };
  return {
    query: (text, params, options) => timed(() => pglite.query(text, params, options)),
    exec: (text) => timed(() => pglite.exec(text)),
    transaction: (fn) => timed(() => pglite.transaction(fn)),
    listen: (channel, callback) => pglite.listen(channel, callback),
    dumpDataDir: (compression) => pglite.dumpDataDir(compression),
    close: () => pglite.close(),
    get closed() {
      return pglite.closed;
    },
    idleMs: () => (running > 0 ? 0 : performance.now() - lastActiveAt),
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ('url' in options) {
    // `pipeline`: a client writes each query as it is made, not once the one before is answered, so
    // a transaction's `begin` and its first statements make one round trip (below).
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // A connection once opened is kept, idle or not (pg-pool closed one after 10 s idle): a class's
      // burst of sends comes after a quiet spell, and would open its connections and plan its
      // statements again (bench:class, 30 at once after the pool emptied: +134 and +144 ms against
      // +104 and +94 with the connections kept).
      idleTimeoutMillis: 0,
      pipeline: true,
      Client: statementClient(options.named ?? namedByDefault()),
    });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    pool.on('error', (error) => console.error('[db] idle client error:', error.message));
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    const handle = txHandles(db).postgres;
    openers.set(db, async <T>(fn: (tx: Tx) => Promise<T>, bounds: Bounds | null) => {
      // One simple-protocol query (no parameters): the transaction and its bounds.
      const begin = bounds ? `begin; ${boundsSql(bounds)}` : 'begin';
      const client = await pool.connect();
      const socket = (client as unknown as pg.Client).connection.stream;
      let begun: Promise<unknown> = Promise.resolve();
      let body: Promise<T> | undefined;
      let broken: Error | undefined;
      try {
        // `begin`, and every statement `fn` makes before it first waits for an answer, leave in ONE
        // write (issue 26: each write is a system call and wakes the backend, and each round trip
        // before the model is waited for). The socket stays corked until the microtasks run out (a
        // tick queued from one runs after the last): drizzle reaches pg's `query` only after
        // awaits of its own, so an uncork as `fn` returned its promise let `begin` and each
        // statement leave in writes of their own (a send's question: three writes, now one).
        socket.cork();
        process.nextTick(() => socket.uncork());
        begun = client.query(begin);
        body = (async () => fn(handle(client)))();
        // `inOrder` waits for both (started above, in the corked write): nothing of `fn` is still
        // running on the connection when it is rolled back and goes back to the pool (a
        // connection answers in order).
        const running = body;
        const [, result] = await inOrder([() => begun, () => running]);
        await client.query('commit');
        return result;
      } catch (error) {
        // After a failed commit there is nothing to roll back: PostgreSQL only warns.
        await client.query('rollback').catch((e: unknown) => (broken = e as Error));
        throw error;
      } finally {
        client.release(broken);
      }
    });
    const notifications = postgresNotifications(options.url);
    return {
      db,
      kind: 'postgres',
      notifications,
      idleMs: () => null,
      threadBusyMs: () => null,
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      migrate: async () => {
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
          await migratePg(drizzlePg({ client, schema }), { migrationsFolder: MIGRATIONS_DIR });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
          client.release();
        }
      },
      close: async () => {
        await notifications.close();
        await endPool(pool);
      },
    };
  }

  // One process at a time on a data dir (PGlite has no lock of its own), and nobody else may read it.
  const lock = options.dataDir ? lockDataDir(options.dataDir) : null;
  const threaded = options.thread ?? pgliteThreadByDefault();
  let client: PgliteHandle & Pick<PgliteThread, 'idleMs'>;
  let thread: PgliteThread | null = null;
  try {
    if (options.dataDir) secureDataDir(options.dataDir);
    if (threaded) {
      thread = await startPgliteThread({ dataDir: options.dataDir, image: options.image });
      client = thread;
    } else {
      client = timedPglite(
        await PGlite.create(options.dataDir ?? undefined, {
          extensions: PGLITE_EXTENSIONS,
          ...(options.image && { loadDataDir: imageBlob(options.image) }),
        }),
      );
    }
    // PGlite unpacks its initial files 0666 whatever the umask: bring them down to 0600.
    if (options.dataDir) secureDataDir(options.dataDir);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const pglite = drizzlePglite({ client: asPglite(client), schema });
  const db = pglite as unknown as Db;
  const handle = txHandles(db).pglite;
  // Without bounds (bounds.ts): PGlite runs one transaction at a time on its one connection, so no
  // statement ever waits for a lock, and its WASM build fires no statement timeout. Setting them
  // was a statement of PGlite's one thread for every transaction (issue 26). In the thread or not,
  // the handle opens the transaction the same way.
  const pgliteClient = client;
  openers.set(db, (fn, _bounds, commitWhen) =>
    pgliteClient.transaction((tx) => fn(handle(tx)), commitWhen ? { commitWhen } : undefined),
  );
  return {
    db,
    kind: 'pglite',
    notifications: pgliteNotifications(client),
    idleMs: () => client.idleMs(),
    threadBusyMs: () => thread?.busyMs() ?? null,
    ping: async () => {
      if (thread?.failure) throw thread.failure;
      await db.execute(sql`select 1`);
    },
    migrate: () => migratePglite(pglite, { migrationsFolder: MIGRATIONS_DIR }),
    close: async () => {
      try {
        if (!client.closed) await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/**
 * `Promise.all` for statements sent together in one transaction (issue 26: they leave in one write):
 * waits for every one, then throws the failure of the first that failed in the order given, not the
 * first to arrive. In an aborted transaction every later statement fails too (25P02), and only the
 * first failure says why (a lock waited for too long, a refused rate limit).
 *
 * Each statement is given as a function that makes it, and started here in the order given: they
 * are sent in the order their queries start, and a drizzle query starts only when awaited while an
 * async function starts its first at once (a finished reply's statement once went before its locks).
 */
export async function inOrder<const T extends readonly (() => unknown)[]>(
  statements: T,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  const settled = await Promise.allSettled(statements.map((make) => Promise.resolve(make())));
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<ReturnType<T[K]>>;
  };
}

/** The PostgreSQL error code of a failed query (drizzle wraps the driver's error in `cause`). */
export function pgErrorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';
const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock

/** Opens a transaction on the database `openDatabase` made `db` for: see `transaction`. */
type Opener = <T>(
  fn: (tx: Tx) => Promise<T>,
  bounds: Bounds | null,
  commitWhen: string | null,
) => Promise<T>;
const openers = new WeakMap<Db, Opener>();

/**
 * drizzle's own transaction handle over a connection (or PGlite transaction) that is already in a
 * transaction we began: the classes drizzle's `db.transaction` builds (drizzle-orm 0.45,
 * node-postgres/session.js and pglite/session.js), so callers keep the same `Tx`, nested savepoints
 * included (`tx.transaction`). Built by hand because drizzle's `db.transaction` sends `begin` as a
 * round trip of its own, and takes no statement to send with it. No logger and no cache:
 * `openDatabase` gives drizzle neither. Nor relational queries (`tx.query`, which `Tx` leaves out):
 * drizzle builds one for every table of the schema with every handle, ~3% of a send's CPU for
 * three handles that never used them (issue 26, perf's samples of the app under sends).
 */
function txHandles(db: Db) {
  const dialect = new PgDialect();
  const relational = {
    schema: db._.schema!,
    fullSchema: db._.fullSchema,
    tableNamesMap: db._.tableNamesMap,
  };
  return {
    postgres: (client: pg.PoolClient) =>
      new NodePgTransaction(
        dialect,
        new NodePgSession(client, dialect, relational),
        undefined,
      ) as unknown as Tx,
    pglite: (tx: PgliteTx) =>
      new PgliteTransaction(
        dialect,
        new PgliteSession(tx, dialect, relational),
        undefined,
      ) as unknown as Tx,
  };
}

export interface TransactionOptions {
  /**
   * How long the transaction's statements may wait for a lock and run (SET LOCAL, bounds.ts:
   * REQUEST_BOUNDS, REPLY_BOUNDS), set by its `begin`; none of ours (the server's own settings)
   * unless given. PostgreSQL only: PGlite has nothing for them to bound (see `openDatabase`).
   */
  bounds?: Bounds;
  /** Tries in all when PostgreSQL aborts the transaction for a deadlock or a serialization failure. */
  attempts?: number;
  /**
   * A column of the statements' answers: on PGlite in its thread, the transaction commits right
   * after the first statement whose first row has it `true` (every statement before it having
   * succeeded), without waiting for `fn` to end it. PGlite runs one transaction at a time and holds
   * it, idle, while this thread takes its turn to send the `commit` (issue 26: 40–60 ms of a class
   * of 30's burst). So the statement must say, in SQL, everything `fn` would check of it: after it
   * `fn` must neither throw nor send more. Elsewhere the transaction ends as always.
   */
  commitWhen?: string;
}

/**
 * Runs `fn` in a transaction, retrying a few times when PostgreSQL aborts it for a deadlock or a
 * serialization failure. Services also take their locks in one order (user → session → tokens), so a
 * retry is a backstop, not the plan. `fn` must not have effects outside the database.
 *
 * The transaction begins with its `bounds` in the same round trip (issue 26: before the model,
 * every statement of a send is a round trip, and on PGlite a turn of its one thread): with
 * REQUEST_BOUNDS a request that would queue behind another of the same account's writes gives up
 * after LOCK_WAIT_MS (409) instead of holding a pooled connection (issue 22 #3). It rolls back when
 * `fn` throws, and its connection goes back to the pool on every path.
 */
export async function transaction<T>(
  db: Db,
  fn: (tx: Tx) => Promise<T>,
  { bounds, attempts = 3, commitWhen }: TransactionOptions = {},
): Promise<T> {
  const open = openers.get(db);
  if (!open) throw new Error('transaction() takes a database that openDatabase opened.');
  for (let attempt = 1; ; attempt++) {
    try {
      return await open(fn, bounds ?? null, commitWhen ?? null);
    } catch (error) {
      if (attempt >= attempts || !RETRYABLE.has(pgErrorCode(error) ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10));
    }
  }
}
