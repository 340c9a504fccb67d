/**
 * Login throttling per account and per client address. After `threshold` failures each further failure
 * locks the key for `baseLockMs · 2^(failures − threshold)`, capped at `maxLockMs`; failures older than
 * `forgetAfterMs` are forgotten, and a successful sign-in clears the account's count. So a lock always
 * ends, and nobody can lock a real user out for longer than the cap.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { AuthSettings, ThrottleRule } from '../config';
import type { Db } from '../db';
import { loginThrottle } from '../db/schema';

export interface ThrottleKeys {
  account: string;
  address: string;
}

export function throttleKeys(email: string, address: string): ThrottleKeys {
  return { account: `account:${email.trim().toLowerCase()}`, address: `address:${address}` };
}

/** Milliseconds until the later of the two locks ends, or 0 when neither is locked. */
export async function lockedFor(db: Db, keys: ThrottleKeys, now: Date): Promise<number> {
  const rows = await db
    .select({ lockedUntil: loginThrottle.lockedUntil })
    .from(loginThrottle)
    .where(inArray(loginThrottle.key, [keys.account, keys.address]));
  let wait = 0;
  for (const { lockedUntil } of rows) {
    if (lockedUntil) wait = Math.max(wait, lockedUntil.getTime() - now.getTime());
  }
  return wait;
}

function lockMs(rule: ThrottleRule, failures: number): number {
  if (failures < rule.threshold) return 0;
  const exponent = Math.min(failures - rule.threshold, 30);
  return Math.min(rule.baseLockMs * 2 ** exponent, rule.maxLockMs);
}

async function fail(db: Db, key: string, rule: ThrottleRule, forgetAfterMs: number, now: Date) {
  const forgetBefore = new Date(now.getTime() - forgetAfterMs);
  // One statement, so that concurrent failures all count.
  const [row] = await db
    .insert(loginThrottle)
    .values({ key, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${loginThrottle.lastFailureAt} < ${forgetBefore.toISOString()}::timestamptz then 1 else ${loginThrottle.failures} + 1 end`,
        lastFailureAt: now,
      },
    })
    .returning({ failures: loginThrottle.failures });
  const ms = lockMs(rule, row?.failures ?? 1);
  if (ms > 0) {
    await db
      .update(loginThrottle)
      .set({ lockedUntil: new Date(now.getTime() + ms) })
      .where(eq(loginThrottle.key, key));
  }
}

export async function recordFailure(
  db: Db,
  keys: ThrottleKeys,
  settings: AuthSettings['throttle'],
  now: Date,
): Promise<void> {
  await fail(db, keys.account, settings.account, settings.forgetAfterMs, now);
  await fail(db, keys.address, settings.address, settings.forgetAfterMs, now);
}

/** A correct password clears the account's failures (not the address's: one good account must not
 * let an address go on guessing at others). */
export async function recordSuccess(db: Db, keys: ThrottleKeys): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, keys.account));
}
