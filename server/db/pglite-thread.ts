/**
 * PGlite in a worker thread (pglite-worker.ts), behind the part of PGlite's own interface that the
 * server uses: `query` and `exec`, `transaction` (held open in the worker while this thread sends its
 * statements), `listen`, `dumpDataDir` and `close`. drizzle's PGlite driver runs on top unchanged.
 *
 * Why: PGlite runs its WASM PostgreSQL synchronously, so on the main thread every statement (and the
 * WAL written at each commit) held up every other request, even reading them. Here the main thread
 * pays a message each way per statement; the database's work runs on the other core.
 *
 * Errors keep their PostgreSQL fields (`code`, `detail`, `constraint`, …) across the thread, so
 * `pgErrorCode`, UNIQUE_VIOLATION and the 40001/40P01 retries work as before. When the thread dies
 * (a crash, an abort of the WASM, `terminate`), every call in flight and every later one fails at
 * once with `PgliteThreadError`, the failure is logged, and `GET /api/v1/health` answers 503: nothing
 * waits for an answer that will never come.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';

import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';

import { startWorker } from '../threads';
import { ownBuffer } from './pglite-image';
import type {
  PgliteCall,
  PgliteMessage,
  PgliteThreadData,
  ThreadError,
  WasmModule,
} from './pglite-worker';

/** Every call of the database fails with this once its thread has stopped. */
export class PgliteThreadError extends Error {
  constructor(why: string) {
    super(`The embedded database stopped: ${why}`);
    this.name = 'PgliteThreadError';
  }
}

type Call = PgliteCall extends infer C ? (C extends PgliteCall ? Omit<C, 'id'> : never) : never;

/** What of PGlite the server uses (drizzle's driver, the migrator, notifications, the test image). */
export interface PgliteHandle {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
  /** `commitWhen`: see `TransactionOptions` (db/index.ts); PGlite itself ignores it. */
  transaction<T>(
    fn: (tx: Transaction) => Promise<T>,
    options?: { commitWhen?: string },
  ): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<unknown>;
  dumpDataDir(compression?: 'gzip' | 'none'): Promise<Blob>;
  close(): Promise<void>;
  readonly closed: boolean;
}

export interface PgliteThread extends PgliteHandle {
  /** Why the thread stopped, while it has not been closed on purpose; null while it runs. */
  readonly failure: Error | null;
  /** The worker itself (tests end it to see a crash surface). */
  readonly worker: Worker;
  /** How long since the thread last answered or was asked anything: 0 while it owes an answer. */
  idleMs(): number;
  /** How long the thread has been busy (its event loop's active time), in ms, since it started. */
  busyMs(): number;
}

/**
 * PGlite's WASM, compiled once a process and handed to every thread: a thread compiling its own took
 * seconds at each start (a test file's database, a restart), where PGlite on the main thread kept one
 * compiled module for the process. V8 shares the module's code, optimised tiers included.
 */
let compiled: Promise<PgliteThreadData['wasm']> | null = null;
// The server's type libraries leave WebAssembly out (no DOM); Node has it.
const { WebAssembly: wasmApi } = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };
};
function wasmModules() {
  compiled ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [pglite, initdb] = await Promise.all(
      ['pglite.wasm', 'initdb.wasm'].map(async (file) =>
        wasmApi.compile(await readFile(path.join(dist, file))),
      ),
    );
    return { pglite: pglite!, initdb: initdb! };
  })().catch((error: unknown) => {
    compiled = null;
    throw error;
  });
  return compiled;
}

/** The error a call answers: PostgreSQL's fields on a fresh Error, whose stack is this thread's. */
function fromThread(error: ThreadError): Error {
  const copy = new Error(error.message) as Error & Record<string, unknown>;
  for (const [key, value] of Object.entries(error.fields)) {
    if (key !== 'message' && key !== 'stack') copy[key] = value;
  }
  if (error.name && error.name !== 'Error') copy.name = error.name;
  return copy;
}

/**
 * drizzle's parsers keep dates, intervals and numeric arrays as PostgreSQL's text. A function cannot
 * cross to the worker, so only such parsers are taken, by type: anything else is refused loudly.
 */
const textTypesOf = new WeakMap<object, number[]>();
function callOptions(options: QueryOptions | undefined) {
  if (!options) return {};
  const { rowMode, parsers, ...rest } = options;
  if (Object.keys(rest).length > 0)
    throw new Error(`PGlite in a thread takes rowMode and parsers only, not ${Object.keys(rest)}`);
  if (!parsers) return { ...(rowMode && { rowMode }) };
  let textTypes = textTypesOf.get(parsers);
  if (!textTypes) {
    textTypes = Object.entries(parsers).map(([oid, parse]) => {
      if (parse('2000-01-01 00:00:00', Number(oid)) !== '2000-01-01 00:00:00')
        throw new Error(`PGlite in a thread cannot run a parser for type ${oid}`);
      return Number(oid);
    });
    textTypesOf.set(parsers, textTypes);
  }
  return { ...(rowMode && { rowMode }), textTypes };
}

/**
 * How long the answers the thread sent while the main thread was busy are handed over at once (the
 * requests they let go on running) before the rest go one a turn, timers and I/O between. Node delivers every message queued on a
 * port in one turn of the event loop: under a class's burst 300 answers, and the work of the 300
 * requests they let go on, ran back to back and held every stream's next words (bench:class: the
 * event loop blocked 170–300 ms at 300 on PGlite, issue 26).
 */
const HAND_OVER_MS = 10;

/**
 * Hands answers over in order: at once while a turn of the event loop has spent less than
 * `budgetMs` on them (Node runs each message's continuations before the next message), and past
 * that one answer a turn, each from a callback of its own (`setImmediate`), so that all of its
 * continuations, however deep, run before the next answer, and timers and I/O come between.
 */
export function handOverInTurns(budgetMs: number): (deliver: () => void) => void {
  const waiting: (() => void)[] = [];
  /** When this turn's hand-overs began, or -1 before the first. */
  let since = -1;
  let draining = false;

  function next() {
    waiting.shift()!();
    if (waiting.length > 0) setImmediate(next);
    else {
      draining = false;
      since = -1;
    }
  }

  return (deliver) => {
    if (!draining && (since < 0 || performance.now() - since < budgetMs)) {
      if (since < 0) {
        since = performance.now();
        // After this turn's messages: the next turn starts with a full budget.
        setImmediate(() => {
          if (!draining) since = -1;
        });
      }
      deliver();
      return;
    }
    waiting.push(deliver);
    if (!draining) {
      draining = true;
      setImmediate(next);
    }
  };
}

export async function startPgliteThread(options: {
  dataDir: string | null;
  /** Moved to the thread: the caller's buffer is left detached (empty). */
  image?: Uint8Array<ArrayBuffer>;
  logger?: Pick<Console, 'error'>;
}): Promise<PgliteThread> {
  const logger = options.logger ?? console;
  // The thread takes the image's whole buffer: bytes that share theirs are copied out first.
  const image = options.image && ownBuffer(options.image);
  const wasm = await wasmModules();
  const workerData: PgliteThreadData = { dataDir: options.dataDir, wasm, ...(image && { image }) };
  const worker = startWorker(new URL('./pglite-worker.ts', import.meta.url), {
    workerData,
    transferList: image ? [image.buffer as ArrayBuffer] : [],
  });

  const pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let nextId = 1;
  /** When the thread was last asked anything, or last answered (`performance.now()`). */
  let lastActiveAt = performance.now();
  let failure: Error | null = null;
  let closing = false;
  let closed = false;

  // The thread keeps the process alive only while it owes an answer, like PGlite in this thread did.
  worker.unref();
  const settled = () => {
    if (pending.size === 0) worker.unref();
  };

  let markReady!: () => void;
  let markFailed!: (error: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });

  let started = false;
  function stop(error: Error) {
    if (failure || closed) return;
    failure = error;
    markFailed(error);
    // Loudly, once it has served: a failure to start is thrown to whoever opened it.
    if (started && !closing) logger.error(`[db] ${error.message}`);
    for (const call of pending.values()) call.reject(error);
    pending.clear();
    settled();
  }

  const handOver = handOverInTurns(HAND_OVER_MS);
  worker.on('message', (message: PgliteMessage) => {
    switch (message.type) {
      case 'ready':
        started = true;
        return markReady();
      case 'failed':
        return stop(fromThread(message.error));
      case 'notify':
        for (const listener of listeners.get(message.channel) ?? []) listener(message.payload);
        return;
      case 'answer': {
        const call = pending.get(message.id);
        if (!call) return;
        pending.delete(message.id);
        lastActiveAt = performance.now();
        settled();
        handOver(() =>
          message.error ? call.reject(fromThread(message.error)) : call.resolve(message.result),
        );
      }
    }
  });
  worker.on('error', (error) => stop(new PgliteThreadError(error.message)));
  worker.on('exit', (code) => {
    if (closing && !failure) closed = true;
    stop(new PgliteThreadError(`its thread exited (code ${code})`));
  });

  function send<T>(call: Call, id = nextId++): Promise<T> {
    if (failure) return Promise.reject(failure);
    if ((closed || closing) && call.op !== 'close')
      return Promise.reject(new Error('The database is closed.'));
    if (pending.size === 0) worker.ref();
    lastActiveAt = performance.now();
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        worker.postMessage({ ...call, id } as PgliteCall);
      } catch (error) {
        // A parameter that cannot cross (DataCloneError): this call fails, nothing else.
        pending.delete(id);
        settled();
        reject(error as Error);
      }
    });
  }

  const query = <T>(sql: string, params: unknown[] = [], options?: QueryOptions, tx?: number) =>
    send<Results<T>>({
      op: 'query',
      sql,
      params,
      options: callOptions(options),
      ...(tx && { tx }),
    });
  const exec = (sql: string, tx?: number) =>
    send<Results[]>({ op: 'exec', sql, ...(tx && { tx }) });

  /**
   * A transaction in the thread, opened by its first statement (in the same message: one turn of
   * the database thread less a transaction, issue 26), whose call's id names it. Every statement is
   * sent as it is made, naming the transaction from the start: the thread queues them in order. Not
   * waiting for the first answer to learn the id matters because PGlite runs one transaction at a
   * time: while the main thread, busy with a class's requests, took its turn to send the next
   * statement, the database thread held the transaction and sat idle (bench:class, 30 students on
   * PGlite: it was idle for most of the burst's first 40 ms). A transaction that sends no statement
   * never opens, and has nothing to end.
   */
  async function transaction<T>(
    fn: (tx: Transaction) => Promise<T>,
    { commitWhen }: { commitWhen?: string } = {},
  ): Promise<T> {
    let id: number | null = null;
    let ended = false;
    /** The thread committed it after a statement that said so (`commitWhen`). */
    let committed = false;
    const noted = <R>(answer: Promise<R>) =>
      commitWhen
        ? answer.then((result) => {
            if ((result as { committed?: boolean } | undefined)?.committed) committed = true;
            return result;
          })
        : answer;
    const inTx = <R>(call: Call & { op: 'query' | 'exec' }): Promise<R> => {
      if (ended) return Promise.reject(new Error('The transaction has already ended.'));
      if (id !== null) return noted(send<R>({ ...call, tx: id }));
      id = nextId++;
      return noted(send<R>({ ...call, begin: true, ...(commitWhen && { commitWhen }) }, id));
    };
    const tx = {
      query: (sql: string, params: unknown[] = [], options?: QueryOptions) =>
        inTx({ op: 'query', sql, params, options: callOptions(options) }),
      exec: (sql: string) => inTx({ op: 'exec', sql }),
      get closed() {
        return ended;
      },
    } as unknown as Transaction;
    // Ends the transaction the thread holds, after its statements, if one was sent and is open.
    const end = async (commit: boolean) => {
      ended = true;
      if (id !== null && !committed) await send({ op: 'end', tx: id, commit });
    };
    let result;
    try {
      result = await fn(tx);
    } catch (error) {
      // The thread may be gone already: the caller's own error is the one that matters.
      await end(false).catch(() => {});
      throw error;
    }
    await end(true);
    return result;
  }

  const thread: PgliteThread = {
    worker,
    get failure() {
      return failure;
    },
    get closed() {
      return closed || closing;
    },
    idleMs: () => (pending.size > 0 ? 0 : performance.now() - lastActiveAt),
    busyMs: () => worker.performance.eventLoopUtilization().active,
    query: (sql, params, options) => query(sql, params, options),
    exec: (sql) => exec(sql),
    transaction,
    async listen(channel, callback) {
      let known = listeners.get(channel);
      if (!known) listeners.set(channel, (known = new Set()));
      known.add(callback);
      await send({ op: 'listen', channel });
    },
    async dumpDataDir(compression = 'gzip') {
      const bytes = await send<ArrayBuffer>({ op: 'dump', compression });
      return new Blob([bytes]);
    },
    async close() {
      if (closing || closed) return;
      closing = true;
      // PGlite writes its pages and stops; the thread ends on its own, or is ended here.
      if (!failure) await send({ op: 'close' }).catch(() => {});
      await worker.terminate();
      closed = true;
    },
  };

  try {
    await ready;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return thread;
}

/** drizzle's PGlite driver takes a PGlite; the thread answers every call it makes. */
export const asPglite = (thread: PgliteHandle) => thread as unknown as PGlite;
