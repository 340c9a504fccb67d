/**
 * Fixed-window rate limits counted in the database (table `rate_limits`), so that they hold across
 * server instances. Counting and checking is one statement: of any number of concurrent calls on one
 * key exactly `limit` get through in a window.
 */
import type { Placeholder, SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';

import type { RateRule } from '../config';
import type { Queryable } from '../db';
import { rowsOf } from '../db';
import type { Placeholders } from '../db/compiled';
import { compiled } from '../db/compiled';
import { userLock } from '../db/locks';
import { rateLimits } from '../db/schema';
import { AppError } from './errors';

/** The counting statement, after a query of one row (`after`) or not. */
function counting(p: Placeholders<'key' | 'at' | 'expired'>, after: SQL | null) {
  // `where true`: without it, ON CONFLICT after a FROM would read as a join's ON.
  return sql`
    insert into ${rateLimits} (key, window_start, count)
    select ${p.key}, ${p.at}::timestamptz, 1 ${after ? sql`from (${after}) first` : sql``} where true
    on conflict (key) do update set
      count = case when ${rateLimits.windowStart} <= ${p.expired}::timestamptz then 1
        else ${rateLimits.count} + 1 end,
      window_start = case when ${rateLimits.windowStart} <= ${p.expired}::timestamptz
        then ${p.at}::timestamptz else ${rateLimits.windowStart} end
    returning count, (extract(epoch from window_start) * 1000)::float8 as window_ms`;
}
const count = compiled<'key' | 'at' | 'expired'>((p) => counting(p, null));
const countAfterUserLock = compiled<'key' | 'at' | 'expired' | 'userId'>((p) =>
  counting(p, userLock(p.userId)),
);

/**
 * Counts one use of `key`; answers 0 when it is allowed, else the seconds until the window ends.
 * `lockUser`: a user whose row is locked first (db/locks.ts `userLock`), in the same statement: the
 * count waits for the lock, and is not made when there is no such user (issue 26: one round trip
 * less a send).
 */
export async function consume(
  q: Queryable,
  key: string,
  rule: RateRule,
  now: Date,
  lockUser?: string,
): Promise<number> {
  const values = {
    key,
    at: now.toISOString(),
    expired: new Date(now.getTime() - rule.windowMs).toISOString(),
  };
  const result = await (lockUser === undefined
    ? count(q, values)
    : countAfterUserLock(q, { ...values, userId: lockUser }));
  const [row] = rowsOf<{ count: number; window_ms: number }>(result);
  if (!row || Number(row.count) <= rule.limit) return 0;
  const endsIn = Number(row.window_ms) + rule.windowMs - now.getTime();
  return Math.max(1, Math.ceil(endsIn / 1000));
}

/** `consume`, throwing `429 {detail}` with `Retry-After` when the key is over its limit. */
export async function enforce(
  q: Queryable,
  key: string,
  rule: RateRule,
  now: Date,
  detail: string,
  lockUser?: string,
): Promise<void> {
  const retryAfter = await consume(q, key, rule, now, lockUser);
  if (retryAfter > 0) throw new AppError(429, detail, { 'Retry-After': String(retryAfter) });
}

/**
 * True while `key`'s count is within `limit` (a rule's), in a statement after `consume` in the same
 * transaction: what `enforce` checks of its answer, said in SQL (for `TransactionOptions.commitWhen`,
 * db/index.ts). Placeholders in a `compiled` statement.
 */
export const withinLimit = (key: Placeholder, limit: Placeholder): SQL =>
  sql`coalesce((select ${rateLimits.count} from ${rateLimits} where ${rateLimits.key} = ${key}) <= ${limit}, false)`;

export const TOO_MANY_NEW_ACCOUNTS =
  'Too many new accounts from this address. Please try again later.';

const newAccountKey = (address: string) => `new-account:address:${address}`;

/**
 * Counts one new account made for a client address (wallet, portal, Google, LTI first sign-ins: issue
 * 22 #6), in the transaction that creates it: beyond `rule` it throws and the transaction (the
 * account, and anything the sign-in consumed) rolls back. The refusal is 429 with Retry-After, or
 * what `refuse` makes of the words where the sign-in is a browser navigation (Google, an LTI launch)
 * and they go back to a page instead.
 */
export async function limitNewAccounts(
  q: Queryable,
  address: string,
  rule: RateRule,
  now: Date,
  refuse?: (detail: string) => Error,
): Promise<void> {
  if (!refuse) return enforce(q, newAccountKey(address), rule, now, TOO_MANY_NEW_ACCOUNTS);
  if ((await consume(q, newAccountKey(address), rule, now)) > 0)
    throw refuse(TOO_MANY_NEW_ACCOUNTS);
}

/**
 * Removes every count that names one of `subjects` (a user id, an email address): keys end with
 * `:<subject>` (`goal-write:<id>`, `reset:email:<address>` …). For account deletion.
 */
export async function forgetRateLimits(q: Queryable, subjects: string[]): Promise<void> {
  const names = [...new Set(subjects.map((s) => s.toLowerCase()))];
  if (names.length === 0) return;
  await q.delete(rateLimits).where(
    sql.join(
      names.map((name) => sql`right(lower(${rateLimits.key}), ${name.length + 1}) = ${`:${name}`}`),
      sql` or `,
    ),
  );
}
