/**
 * The embedded database (PGlite) in a worker thread of its own (see pglite-thread.ts). PGlite runs
 * PostgreSQL compiled to WASM synchronously, plus its JS filesystem layer for the WAL a commit
 * writes: on the main thread every statement stopped accepting, parsing and streaming for everyone.
 * Here it runs beside the event loop, and the main thread only sends each statement and reads its
 * answer.
 *
 * One message in, one answer out (`{ id, result }` or `{ id, error }`), in the order PGlite answers.
 * A transaction is held open here while the main thread sends its statements (PGlite runs one at a
 * time anyway): its first statement opens it (in the same turn), and its call's id names it. Later
 * statements name it from the start, so the main thread sends them without waiting for the first
 * one's answer: they queue here and run in order, in the transaction, as soon as it is theirs.
 * `end` (after them) commits or rolls it back. A `NOTIFY` heard while a statement runs is posted
 * before that statement's answer, so the main thread hears it before the caller goes on, as it did
 * with PGlite on the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';

import type { PGliteOptions, Transaction } from '@electric-sql/pglite';
import { PGlite } from '@electric-sql/pglite';

import { PGLITE_EXTENSIONS } from './pglite-extensions';
import { imageBlob } from './pglite-image';
import { preparedStatements } from './pglite-statements';

/** A compiled `WebAssembly.Module` (the server's type libraries leave WebAssembly out). */
export type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;

export interface PgliteThreadData {
  /** The data dir, or null to keep the database in memory. */
  dataDir: string | null;
  /** A dump of a data dir (`dumpDataDir`) to start from instead of an empty cluster. */
  image?: Uint8Array<ArrayBuffer>;
  /** PGlite's WASM modules, compiled once a process (pglite-thread.ts). */
  wasm: { pglite: WasmModule; initdb: WasmModule };
}

/** The query options that cross the thread: parsers are drizzle's, which keep these types' text. */
interface CallOptions {
  rowMode?: 'array' | 'object';
  /** Type OIDs whose values are answered as PostgreSQL's text, unparsed. */
  textTypes?: number[];
}

/**
 * A statement's call opens its transaction (`begin`) when it is the transaction's first, and its
 * `id` is then the transaction's: later calls name it as `tx`. A failed statement leaves the
 * transaction open (aborted, as PostgreSQL leaves it) until its `end`.
 */
type Opening = {
  begin?: true;
  /**
   * A column of a statement's answer (`TransactionOptions.commitWhen`, db/index.ts): the
   * transaction commits right after the first statement whose first row has it `true`, every
   * statement before it having succeeded, without waiting for `end`; that statement's answer, sent
   * once the commit is done, says `committed: true`, and the transaction takes nothing more.
   */
  commitWhen?: string;
};

export type PgliteCall =
  | ({
      id: number;
      op: 'query';
      sql: string;
      params: unknown[];
      options: CallOptions;
      tx?: number;
    } & Opening)
  | ({ id: number; op: 'exec'; sql: string; tx?: number } & Opening)
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'dump'; compression: 'gzip' | 'none' }
  | { id: number; op: 'close' };

/** A PostgreSQL error as it crosses the thread: its message and its fields (code, detail, …). */
export interface ThreadError {
  message: string;
  name: string;
  fields: Record<string, string | number | boolean>;
}

export type PgliteMessage =
  | { type: 'ready' }
  | { type: 'failed'; error: ThreadError }
  | { type: 'notify'; channel: string; payload: string }
  | { type: 'answer'; id: number; result?: unknown; error?: ThreadError };

const port = parentPort!;
const data = workerData as PgliteThreadData;

function threadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: ThreadError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string;
  }
  return { message: error.message, name: error.name, fields };
}

const answer = (id: number, result?: unknown, transfer: ArrayBuffer[] = []) =>
  port.postMessage({ type: 'answer', id, result } satisfies PgliteMessage, transfer);
const refuse = (id: number, error: unknown) =>
  port.postMessage({ type: 'answer', id, error: threadError(error) } satisfies PgliteMessage);

/** Keeps the value as it came (drizzle's parsers for dates, intervals and numeric arrays). */
const asText = (value: string) => value;
const parsersCache = new Map<string, Record<number, (value: string) => string>>();
function parsersOf(types: number[] | undefined) {
  if (!types?.length) return undefined;
  const key = types.join(',');
  let parsers = parsersCache.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(types.map((oid) => [oid, asText]));
    parsersCache.set(key, parsers);
  }
  return parsers;
}

/**
 * A transaction open here, by the id of its first call: its statements run one after another, each
 * once every statement sent before it has run (the main thread sends them without waiting), then
 * `end` commits or rolls it back.
 */
interface Held {
  run<R>(work: (tx: Transaction) => Promise<R>): Promise<R>;
  end(commit: boolean, id: number): void;
}
const open = new Map<number, Held>();

class Rollback extends Error {}

async function main() {
  const client = await PGlite.create(data.dataDir ?? undefined, {
    extensions: PGLITE_EXTENSIONS,
    pgliteWasmModule: data.wasm.pglite,
    initdbWasmModule: data.wasm.initdb,
    ...(data.image && { loadDataDir: imageBlob(data.image) }),
  });

  // Statements with parameters run as named prepared statements (pglite-statements.ts, issue 26).
  const statements = preparedStatements(client);

  /** Runs `work` in the held transaction `tx`, after its statements before it; else outside one. */
  function within<R>(tx: number | undefined, work: (tx: Transaction | undefined) => Promise<R>) {
    if (tx === undefined) return work(undefined);
    const held = open.get(tx);
    if (!held) throw new Error('The transaction has already ended.');
    return held.run(work);
  }

  /**
   * Opens the transaction `id` (the id of the call of its first statement) and runs `first` in it,
   * answering as any statement. Statements naming `id` may arrive before it is open: they wait in
   * order behind `first`. A failed BEGIN fails `first` and every statement queued behind it.
   */
  function begin(id: number, first: (tx: Transaction) => Promise<unknown>, commitWhen?: string) {
    let handOut!: (tx: Transaction) => void;
    let fail!: (error: unknown) => void;
    const handle = new Promise<Transaction>((resolve, reject) => {
      handOut = resolve;
      fail = reject;
    });
    /** How it ends: `end`'s call (its id, to answer), or null when it commits early. */
    let finish!: (ended: { commit: boolean; id: number | null }) => void;
    const ended = new Promise<{ commit: boolean; id: number | null }>(
      (resolve) => (finish = resolve),
    );
    const endAnswer = async (error?: unknown) => {
      const { id: endId } = await ended;
      if (endId === null) return;
      if (error === undefined) answer(endId);
      else refuse(endId, error);
    };
    let began = false;
    let failed = false;
    let committedEarly = false;
    /** Settles when the last statement queued has (its outcome is its caller's). */
    let last: Promise<unknown> = handle.catch(() => {});
    const done = client
      .transaction(async (tx) => {
        began = true;
        handOut(tx);
        const end = await ended;
        if (!end.commit) throw new Rollback();
      })
      .finally(() => open.delete(id));
    const run = async <R>(work: (tx: Transaction) => Promise<R>) => {
      const tx = await handle;
      if (committedEarly) throw new Error('The transaction has already ended.');
      let result: R;
      try {
        result = await work(tx);
      } catch (error) {
        failed = true;
        throw error;
      }
      const row = (result as { rows?: Record<string, unknown>[] } | undefined)?.rows?.[0];
      if (!commitWhen || failed || row?.[commitWhen] !== true) return result;
      committedEarly = true;
      finish({ commit: true, id: null });
      await done;
      return Object.assign(result as object, { committed: true }) as R;
    };
    open.set(id, {
      run(work) {
        const next = last.then(() => run(work));
        last = next.catch(() => {});
        return next;
      },
      end(commit, endId) {
        void last.then(() => finish({ commit, id: endId }));
      },
    });
    open
      .get(id)!
      .run(first)
      .then(
        (result) => answer(id, result),
        (error: unknown) => refuse(id, error),
      );
    done.then(
      () => endAnswer(),
      (error: unknown) => {
        if (!began) {
          // BEGIN failed: the statements fail with it, and the end has nothing to end.
          fail(error);
          return endAnswer();
        }
        return endAnswer(error instanceof Rollback ? undefined : error); // else the COMMIT failed
      },
    );
  }

  port.on('message', (call: PgliteCall) => {
    const run = async (): Promise<void> => {
      switch (call.op) {
        case 'query': {
          const { rowMode, textTypes } = call.options;
          const parsers = parsersOf(textTypes);
          const options = { ...(rowMode && { rowMode }), ...(parsers && { parsers }) };
          if (call.begin)
            return begin(
              call.id,
              (tx) => statements.query(call.sql, call.params, options, tx),
              call.commitWhen,
            );
          return answer(
            call.id,
            await within(call.tx, (tx) => statements.query(call.sql, call.params, options, tx)),
          );
        }
        case 'exec':
          if (call.begin) return begin(call.id, (tx) => tx.exec(call.sql));
          return answer(call.id, await within(call.tx, (tx) => (tx ?? client).exec(call.sql)));
        case 'end': {
          const held = open.get(call.tx);
          if (!held) throw new Error('The transaction has already ended.');
          open.delete(call.tx);
          return held.end(call.commit, call.id);
        }
        case 'listen':
          await client.listen(call.channel, (payload) =>
            port.postMessage({
              type: 'notify',
              channel: call.channel,
              payload,
            } satisfies PgliteMessage),
          );
          return answer(call.id);
        case 'dump': {
          const dump = await client.dumpDataDir(call.compression);
          const bytes = await dump.arrayBuffer();
          return answer(call.id, bytes, [bytes]);
        }
        case 'close':
          if (!client.closed) await client.close();
          answer(call.id);
          port.close();
          return;
      }
    };
    run().catch((error: unknown) => refuse(call.id, error));
  });
  port.postMessage({ type: 'ready' } satisfies PgliteMessage);
}

main().catch((error: unknown) =>
  port.postMessage({ type: 'failed', error: threadError(error) } satisfies PgliteMessage),
);
