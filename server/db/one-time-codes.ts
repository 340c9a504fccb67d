/**
 * One-time hand-off codes: how a sign-in that ends in a browser redirect or a form post (Google's
 * callback, an LTI launch, a deep-linking request) hands its result to the page that a moment later
 * trades the code by POST, without ever putting a token in a URL. Written once here; each domain keeps
 * its own table (any table with `code_hash` and `expires_at`), so that what a code carries stays typed
 * (a user with a foreign key for a sign-in code, a JSON payload for an LTI hand-off).
 *
 * A code is 256 random bits, stored only as its SHA-256, lives the time it is issued for and is used
 * once: taking it deletes its row in the same statement that finds it, so of any number of concurrent
 * takes exactly one gets the row. An expired code is never taken; expired rows go when the next code
 * is issued. A take may add conditions (the browser's binding): a code they refuse is not used up.
 */
import { createHash, randomBytes } from 'node:crypto';

import type { SQL } from 'drizzle-orm';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

import type { Queryable } from './index';

/** A table of codes: its hash and its end, and whatever the code carries besides. */
type CodeTable = PgTable & { codeHash: PgColumn; expiresAt: PgColumn };

/** What a code is stored as (hex SHA-256): the code itself never is. */
export const codeHash = (code: string) => createHash('sha256').update(code, 'utf8').digest('hex');

export function oneTimeCodes<T extends CodeTable>(table: T, now: () => Date) {
  return {
    /** A new code carrying `values`, usable for `ttlMs`; in the caller's transaction when given one. */
    async issue(
      q: Queryable,
      values: Omit<T['$inferInsert'], 'codeHash' | 'expiresAt'>,
      ttlMs: number,
    ): Promise<string> {
      const code = randomBytes(32).toString('base64url');
      const at = now();
      await q.delete(table).where(lt(table.expiresAt, at));
      await q.insert(table).values({
        ...values,
        codeHash: codeHash(code),
        expiresAt: new Date(at.getTime() + ttlMs),
      } as T['$inferInsert']);
      return code;
    },

    /**
     * Uses `code` up and answers what it carried; null when it is unknown, expired, already used, or
     * refused by `where` (then it stays usable).
     */
    async take(q: Queryable, code: string, where?: SQL): Promise<T['$inferSelect'] | null> {
      const rows = (await q
        .delete(table)
        .where(and(eq(table.codeHash, codeHash(code)), gt(table.expiresAt, now()), where))
        .returning()) as T['$inferSelect'][];
      return rows[0] ?? null;
    },
  };
}
