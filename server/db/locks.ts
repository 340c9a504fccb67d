/**
 * Row locks every domain takes in the same order: user → session/goal → ledger. Whoever changes a
 * user's points (an award, a take-back, a conversion) locks the user's row first, so concurrent
 * changes of one user run one after another.
 */
import type { Placeholder, SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';

import type { Queryable } from '.';
import { users } from './schema';

export async function lockUser(q: Queryable, userId: string): Promise<void> {
  await q.execute(userLock(userId));
}

/**
 * `lockUser`'s query, for a statement that must take the lock first (http/rate-limit.ts `consume`);
 * the user a placeholder in a `compiled` statement.
 */
export function userLock(userId: string | Placeholder): SQL {
  return sql`select ${users.id} from ${users} where ${users.id} = ${userId} for no key update`;
}
