/**
 * Named prepared statements for PGlite (the worker's `query`, pglite-worker.ts). PGlite's own `query`
 * sends every statement as a new unnamed one: parse, describe, bind, describe, execute, sync — six
 * turns of its WASM PostgreSQL, and a parse and a plan each time. Measured under bench:class (issue
 * 26), parsing and planning were most of the database's time a send: the memory recall 0.4 ms to
 * parse and 0.7 to plan against 0.16 to run, the rate limit 0.26, 0.28 and 0.22. So a statement
 * with parameters is parsed and described once under a name and then only bound, executed and
 * synced, and PostgreSQL keeps its plan as it does for any client's prepared statement (a plan of
 * its own for the first five runs, then a generic one when that costs no more).
 *
 * The statements kept are the `capacity` most recently used; an older one is closed when a new one
 * needs its place. A statement without parameters (`begin`, a migration's DDL) runs as PGlite runs
 * it. A kept statement that PostgreSQL refuses to run as it was prepared (a table changed under it:
 * 0A000, or it is gone: 26000) is closed and prepared anew: at once outside a transaction, the next
 * time inside one (whose statement failed with it). Errors carry `query`, `params` and
 * `queryOptions` as PGlite's own do.
 */
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { parse, protocol } from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

interface Prepared {
  name: string;
  /** The parameters' type OIDs, for their serializers. */
  types: number[];
  /** What the statement answers (its RowDescription), or null when it answers no rows. */
  rows: BackendMessage | null;
}

/** PostgreSQL's refusals that mean "prepare it again": a changed result type, a missing statement. */
const STALE = new Set(['0A000', '26000']);

type Parsers = Parameters<typeof parse.parseResults>[1];

const { serialize } = protocol;
const SYNC = serialize.sync();

export interface PreparedStatements {
  /**
   * Runs `sql` as PGlite's `query` does, in the transaction `tx` when given (its statements neither
   * wait for it nor write to disk before its commit).
   */
  query<T>(
    sql: string,
    params: unknown[],
    options: QueryOptions | undefined,
    tx: Pick<Transaction, 'query'> | undefined,
  ): Promise<Results<T>>;
  /** How many statements are kept. */
  readonly size: number;
}

export function preparedStatements(client: PGlite, capacity = 256): PreparedStatements {
  /** By key (the text, and the parameter types when given), least recently used first. */
  const kept = new Map<string, Prepared>();
  /** Names to close in PostgreSQL (past capacity, or stale) when the next statement is prepared. */
  const closing: string[] = [];
  let made = 0;

  /**
   * Sends `messages` and a Sync in one turn of PGlite's PostgreSQL, which reads them in order and,
   * after an error, skips to the Sync as any PostgreSQL server does: one call into WASM a statement
   * where a call a message took three (issue 26).
   */
  function exchange(messages: Uint8Array[]): Promise<BackendMessage[]> {
    return client.execProtocolStream(Buffer.concat([...messages, SYNC]), { syncToFs: false });
  }

  async function prepare(
    key: string,
    sql: string,
    options: QueryOptions | undefined,
  ): Promise<Prepared> {
    const name = `ayah_${++made}`;
    const answers = await exchange([
      serialize.parse({
        name,
        text: sql,
        ...(options?.paramTypes && { types: options.paramTypes }),
      }),
      serialize.describe({ type: 'S', name }),
    ]);
    const prepared = {
      name,
      types: parse.parseDescribeStatementResults(answers),
      rows: answers.find((m) => m.name === 'rowDescription') ?? null,
    };
    kept.set(key, prepared);
    // Past capacity: the least recently used statement goes, its memory in PostgreSQL freed.
    for (const [older, old] of kept) {
      if (kept.size <= capacity) break;
      kept.delete(older);
      closing.push(old.name);
    }
    // Closed now that a Parse has just gone through (not in an aborted transaction); a Close that
    // fails leaves a statement behind in PostgreSQL, not this one's answer unanswered.
    if (closing.length > 0)
      await exchange(
        closing.splice(0).map((old) => serialize.close({ type: 'S', name: old })),
      ).catch(() => {});
    return prepared;
  }

  /**
   * The parsers and options for `parseResults`, with the caller's parsers merged into PGlite's once
   * per set of them: `parseResults` would copy PGlite's whole table for every statement, 15 % of the
   * thread's time under bench:class (issue 26). The worker keeps one parsers object a set of types.
   */
  const merged = new WeakMap<object, Parsers>();
  function parsing(options: QueryOptions | undefined): [Parsers, QueryOptions | undefined] {
    const own = options?.parsers;
    if (!own) return [client.parsers, options];
    let parsers = merged.get(own);
    if (!parsers) {
      parsers = { ...client.parsers, ...own };
      merged.set(own, parsers);
    }
    return [parsers, { ...options, parsers: undefined }];
  }

  async function run<T>(
    sql: string,
    params: unknown[],
    options: QueryOptions | undefined,
    inTransaction: boolean,
  ): Promise<Results<T>> {
    const key = options?.paramTypes ? `${options.paramTypes.join(',')}\n${sql}` : sql;
    for (;;) {
      const cached = kept.get(key);
      if (cached) {
        // Most recently used: to the end of the line.
        kept.delete(key);
        kept.set(key, cached);
      }
      const prepared = cached ?? (await prepare(key, sql, options));
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const type = prepared.types[i]!;
        const serializer = options?.serializers?.[type] ?? client.serializers[type];
        return serializer ? serializer(value) : (value as { toString(): string }).toString();
      });
      try {
        const answers = await exchange([
          serialize.bind({ statement: prepared.name, values }),
          serialize.execute({}),
        ]);
        const messages = prepared.rows ? [prepared.rows, ...answers] : answers;
        return parse.parseResults(messages, ...parsing(options))[0] as Results<T>;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (!cached || !code || !STALE.has(code)) throw error;
        // A kept statement PostgreSQL will not run as it was prepared: prepared anew next time, and
        // at once outside a transaction (inside one, this error has aborted it: the caller hears it).
        kept.delete(key);
        closing.push(prepared.name);
        if (inTransaction) throw error;
      }
    }
  }

  return {
    get size() {
      return kept.size;
    },
    async query<T>(
      sql: string,
      params: unknown[],
      options: QueryOptions | undefined,
      tx: Pick<Transaction, 'query'> | undefined,
    ) {
      if (params.length === 0) return (tx ?? client).query<T>(sql, params, options);
      const inTransaction = tx !== undefined;
      const once = async () => {
        try {
          const result = await run<T>(sql, params, options, inTransaction);
          if (!inTransaction) await client.syncToFs();
          return result;
        } catch (error) {
          Object.assign(error as object, { query: sql, params, queryOptions: options });
          throw error;
        }
      };
      // Outside a transaction: after any open one, as PGlite's `query` waits; inside: its turn.
      return inTransaction
        ? client._runExclusiveQuery(once)
        : client._runExclusiveTransaction(() => client._runExclusiveQuery(once));
    },
  };
}
