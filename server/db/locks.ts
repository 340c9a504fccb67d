/**
 * Row locks every domain takes in the same order: user → session/goal → ledger. Whoever changes a
 * user's points (an award, a take-back, a conversion) locks the user's row first, so concurrent
 * changes of one user run one after another.
 */
import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';

import type { Queryable, Tx } from '.';
import { users } from './schema';

export async function lockUser(q: Queryable, userId: string): Promise<void> {
  await q.execute(userLock(userId));
}

/** `lockUser`'s query, for a statement that must take the lock first (http/rate-limit.ts `after`). */
export function userLock(userId: string): SQL {
  return sql`select ${users.id} from ${users} where ${users.id} = ${userId} for no key update`;
}

/** How long a request's transaction waits for a row lock before it answers 409 (http/errors.ts). */
export const LOCK_WAIT_MS = 3000;
/**
 * How long storing a finished reply waits: the student has already read it, so it waits out a
 * burst of the same account's writes (those are rate-limited) rather than be lost after 3 s.
 */
export const REPLY_LOCK_WAIT_MS = 15_000;
/** How long one statement of a request's transaction may run before it answers 503. */
export const STATEMENT_MS = 10_000;

/**
 * Bounds the waits of the transaction `tx` (SET LOCAL, so only its own): a request that would queue
 * behind another of the same account's writes gives up after LOCK_WAIT_MS instead of holding a pooled
 * connection, so one account's flood never holds the pool (issue 22 #3).
 */
export async function boundWaits(
  tx: Tx,
  { lockWaitMs = LOCK_WAIT_MS }: { lockWaitMs?: number } = {},
): Promise<void> {
  await tx.execute(
    sql`select set_config('lock_timeout', ${`${lockWaitMs}ms`}, true),
      set_config('statement_timeout', ${`${STATEMENT_MS}ms`}, true)`,
  );
}
