/**
 * PostgreSQL's pooled connections run every statement with parameters as a named prepared statement
 * (issue 26): parsed and planned once a connection, then only bound and run, PostgreSQL keeping its
 * plan (custom for five runs, then generic when that costs no more), as PGlite's thread does
 * (pglite-statements.ts). Unnamed, each of a send's statements was parsed and planned anew: with
 * pg_stat_statements, planning alone was 1.3 ms of PostgreSQL's CPU a send (the memory recall 0.37 ms
 * to plan, 0.12 ms to run); bench:class's 300 students at once took 1,600 ms of PostgreSQL's CPU
 * unnamed against 1,100 named.
 *
 * A statement's name is a hash of its text, so every connection names a text alike. One connection
 * prepares at most MAX_NAMED_A_CONNECTION texts; past them a new text runs unnamed there, as does a
 * text whose statement went stale on it (its table changed its result's type: 0A000), or that met an
 * error of the client's own (a value pg could not send: it then closes the statement on the server).
 * A statement a connection no longer has (26000: a pooler gave it another server connection) is
 * prepared again the next time. Either way the statement that met it fails, once.
 *
 * `AYAH_PG_NAMED=0` runs every statement unnamed, drizzle's `.prepare(name)` ones too: for a pooler
 * in transaction mode that cannot carry named statements (PgBouncer before 1.21).
 */
import { createHash } from 'node:crypto';

import pg from 'pg';

/** The most texts one connection keeps prepared (the pool keeps a connection once opened). */
export const MAX_NAMED_A_CONNECTION = 256;
/** Texts whose name is remembered (the app's statements are a few hundred; the rest are hashed). */
const MAX_REMEMBERED = 2048;
/** Whether statements run named by default: unless `AYAH_PG_NAMED=0`. */
export const namedByDefault = () => process.env.AYAH_PG_NAMED !== '0';

const names = new Map<string, string>();

/** A text's name: the same on every connection, and in every process. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `ayah_${createHash('sha1').update(text).digest('base64url').slice(0, 24)}`;
    if (names.size < MAX_REMEMBERED) names.set(text, name);
  }
  return name;
}

interface Statement {
  text?: string;
  name?: string;
  values?: unknown[];
  submit?: unknown;
}

/** What pg's connection keeps of the statements it has prepared (pg 8, lib/connection.js). */
interface Prepared {
  parsedStatements: Record<string, string>;
}

/**
 * The `Client` class of a pool whose statements run named (`named`), or all unnamed. The pool makes
 * one a connection.
 */
export function statementClient(named: boolean, most = MAX_NAMED_A_CONNECTION): typeof pg.Client {
  class StatementClient extends pg.Client {
    /** The names this connection has sent, to count them against `most`. */
    readonly #sent = new Set<string>();
    /** Names whose statement went stale on this connection: their text runs unnamed here. */
    readonly #retired = new Set<string>();

    override query(...args: unknown[]): never {
      const [config, second] = args;
      // A Submittable (a cursor, pg's own Query) and a plain text without parameters pass as given.
      const statement: Statement | null =
        typeof config === 'string'
          ? { text: config }
          : config &&
              typeof config === 'object' &&
              typeof (config as Statement).submit !== 'function'
            ? (config as Statement)
            : null;
      const values = Array.isArray(second) ? second : statement?.values;
      if (!statement?.text || (!statement.name && !values?.length))
        return super.query(...(args as [string])) as never;
      const name = named ? this.#nameOf(statement) : undefined;
      const sent = super.query(
        ...([{ ...statement, name }, ...args.slice(1)] as unknown as [string]),
      ) as unknown;
      // Callback calls come from `pool.query`, and the pool drops a connection after any error.
      if (!name || typeof (sent as Promise<unknown> | undefined)?.then !== 'function')
        return sent as never;
      return (sent as Promise<unknown>).catch((error: unknown) => {
        this.#stale(name, error);
        throw error;
      }) as never;
    }

    /** The name to run `statement` under on this connection, or undefined: unnamed. */
    #nameOf(statement: Statement): string | undefined {
      const name = statement.name ?? statementName(statement.text!);
      if (this.#retired.has(name)) return undefined;
      if (!this.#sent.has(name)) {
        if (this.#sent.size >= most) return undefined;
        this.#sent.add(name);
      }
      return name;
    }

    #stale(name: string, error: unknown) {
      const code = (error as { code?: string } | null)?.code;
      const prepared = (this as unknown as { connection: Prepared }).connection.parsedStatements;
      // The statement exists, and can no longer run as it was planned: never again here. Nor after
      // an error of the client's own (a value it could not send): pg then closes the statement on
      // the server, and still counts it as prepared.
      if (code === '0A000' || !(error instanceof pg.DatabaseError)) this.#retired.add(name);
      // The server connection has no such statement: prepared again the next time.
      else if (code === '26000') delete prepared[name];
    }
  }
  return StatementClient;
}
