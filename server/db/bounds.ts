/**
 * How long a request's transaction may wait and run (issue 22 #3): SET LOCAL `lock_timeout` and
 * `statement_timeout`, sent in the same round trip as its `begin` (db/index.ts `transaction`, its
 * `bounds` option), so they cost nothing and end with the transaction (no connection-level
 * setting: pgbouncer-safe).
 * PGlite goes without them (db/index.ts): it runs one transaction at a time on one connection, so
 * nothing waits for a lock, and its WASM build never fires a statement timeout.
 */

/** How long a request's transaction waits for a row lock before it answers 409 (http/errors.ts). */
export const LOCK_WAIT_MS = 3000;
/**
 * How long storing a finished reply waits: the student has already read it, so it waits out a
 * burst of the same account's writes (those are rate-limited) rather than be lost after 3 s.
 */
export const REPLY_LOCK_WAIT_MS = 15_000;
/** How long one statement of a request's transaction may run before it answers 503. */
export const STATEMENT_MS = 10_000;

export interface Bounds {
  /** `lock_timeout`: a statement waiting longer for a lock fails with 55P03 (409). */
  lockWaitMs: number;
  /** `statement_timeout`: a statement running longer is cancelled with 57014 (503). */
  statementMs: number;
}

/** A request's transaction: gives up rather than hold a pooled connection behind a busy row. */
export const REQUEST_BOUNDS: Bounds = { lockWaitMs: LOCK_WAIT_MS, statementMs: STATEMENT_MS };
/** Storing a finished reply (see REPLY_LOCK_WAIT_MS). */
export const REPLY_BOUNDS: Bounds = { lockWaitMs: REPLY_LOCK_WAIT_MS, statementMs: STATEMENT_MS };

/**
 * The statement that sets `bounds` for the rest of the transaction. Without parameters, so that it
 * can share a simple-protocol query with `begin`: the values are our own integers, checked here and
 * formatted as such, never text from a request.
 */
export function boundsSql({ lockWaitMs, statementMs }: Bounds): string {
  for (const ms of [lockWaitMs, statementMs]) {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`Not a bound in ms: ${ms}`);
  }
  return (
    `select set_config('lock_timeout', '${lockWaitMs}ms', true), ` +
    `set_config('statement_timeout', '${statementMs}ms', true)`
  );
}
