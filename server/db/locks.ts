/**
 * Row locks every domain takes in the same order: user → session/goal → ledger. Whoever changes a
 * user's points (an award, a take-back, a conversion) locks the user's row first, so concurrent
 * changes of one user run one after another.
 */
import { eq } from 'drizzle-orm';
import type { Queryable } from '.';
import { users } from './schema';

export async function lockUser(q: Queryable, userId: string): Promise<void> {
  await q.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
}
