/**
 * Login throttling per account and per client address. After `threshold` failures each further failure
 * locks the key for `baseLockMs · 2^(failures − threshold)`, capped at `maxLockMs`; failures older than
 * `forgetAfterMs` are forgotten, and a successful sign-in clears the account's count. So a lock always
 * ends, and nobody can lock a real user out for longer than the cap.
 *
 * The account's attempt is counted before the password is checked, in the same statement that checks
 * the lock (`reserveAttempt`): of any number of concurrent guesses exactly `threshold` are evaluated
 * before the lock stops the rest. A right password then clears the count.
 */
import { eq, inArray, sql } from 'drizzle-orm';

import type { AuthSettings, LimitSettings, ThrottleRule } from '../config';
import type { Db } from '../db';
import type { User } from '../db/schema';
import { loginThrottle } from '../db/schema';
import { AppError } from '../http/errors';
import { enforce } from '../http/rate-limit';

export interface ThrottleKeys {
  account: string;
  address: string;
}

export function throttleKeys(email: string, address: string): ThrottleKeys {
  return { account: `account:${email.trim().toLowerCase()}`, address: `address:${address}` };
}

/** Milliseconds until the latest lock of `keys` ends, or 0 when none is locked. */
export async function lockedFor(db: Db, keys: string[], now: Date): Promise<number> {
  const rows = await db
    .select({ lockedUntil: loginThrottle.lockedUntil })
    .from(loginThrottle)
    .where(inArray(loginThrottle.key, keys));
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

/**
 * Counts an attempt on the account before its password is checked, and checks the account's lock, in
 * one statement: the upsert only counts while the key is not locked (its WHERE is re-checked on the
 * row's newest version after a concurrent writer commits), and sets the lock itself once the count
 * reaches the threshold. Answers 0 when the attempt may be evaluated, else the milliseconds to wait.
 */
export async function reserveAttempt(
  db: Db,
  key: string,
  rule: ThrottleRule,
  forgetAfterMs: number,
  now: Date,
): Promise<number> {
  const at = now.toISOString();
  const forgetBefore = new Date(now.getTime() - forgetAfterMs).toISOString();
  const failures = sql`(case when ${loginThrottle.lastFailureAt} < ${forgetBefore}::timestamptz then 1 else ${loginThrottle.failures} + 1 end)`;
  const lockMsSql = sql`least(${rule.baseLockMs}::float8 * power(2, least(${failures} - ${rule.threshold}, 30)), ${rule.maxLockMs}::float8)`;
  const firstLock = lockMs(rule, 1);
  const [row] = await db
    .insert(loginThrottle)
    .values({
      key,
      failures: 1,
      lastFailureAt: now,
      lockedUntil: firstLock > 0 ? new Date(now.getTime() + firstLock) : null,
    })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures,
        lastFailureAt: now,
        lockedUntil: sql`case when ${failures} >= ${rule.threshold} then ${at}::timestamptz + ${lockMsSql} * interval '1 millisecond' else null end`,
      },
      setWhere: sql`${loginThrottle.lockedUntil} is null or ${loginThrottle.lockedUntil} <= ${at}::timestamptz`,
    })
    .returning({ failures: loginThrottle.failures });
  if (row) return 0;
  const [locked] = await db
    .select({ lockedUntil: loginThrottle.lockedUntil })
    .from(loginThrottle)
    .where(eq(loginThrottle.key, key));
  return Math.max(1, (locked?.lockedUntil?.getTime() ?? now.getTime()) - now.getTime());
}

/** The 429 of a locked account (login, change-password and delete-account share the lock). */
export const THROTTLED = 'Too many failed sign-in attempts. Please try again later.';

/**
 * Where a signed-in caller types their password (change-password, delete-account): a stolen access
 * token must not guess it. Reserves an attempt on login's account key (the same lock) and throws 429
 * with Retry-After while it is locked; answers the keys, for `recordSuccess` after a right password.
 */
export function passwordGuard(db: Db, throttle: AuthSettings['throttle'], now: () => Date) {
  return async function guardPassword(user: User): Promise<ThrottleKeys> {
    const keys = throttleKeys(user.email ?? user.id, '');
    const wait = await reserveAttempt(
      db,
      keys.account,
      throttle.account,
      throttle.forgetAfterMs,
      now(),
    );
    if (wait > 0)
      throw new AppError(429, THROTTLED, { 'Retry-After': String(Math.ceil(wait / 1000)) });
    return keys;
  };
}

/** A failed password: the address's count (the account's was counted by `reserveAttempt`). */
export async function recordAddressFailure(
  db: Db,
  keys: ThrottleKeys,
  settings: AuthSettings['throttle'],
  now: Date,
): Promise<void> {
  await fail(db, keys.address, settings.address, settings.forgetAfterMs, now);
}

export type AccountMailPurpose = 'register' | 'resend' | 'reset';

export const TOO_MANY_REQUESTS = 'Too many requests. Please try again later.';

/**
 * Registrations, verification resends and reset requests: each costs an argon2 hash or a mail, so
 * each is limited per client address and per email address (429 with Retry-After), before any
 * lookup, so the answer says nothing about whether the address has an account.
 */
export async function limitAccountMail(
  db: Db,
  purpose: AccountMailPurpose,
  email: string,
  address: string,
  limits: LimitSettings,
  now: Date,
): Promise<void> {
  const normalized = email.trim().toLowerCase();
  await enforce(
    db,
    `${purpose}:address:${address}`,
    limits.accountMailPerAddress,
    now,
    TOO_MANY_REQUESTS,
  );
  await enforce(
    db,
    `${purpose}:email:${normalized}`,
    limits.accountMailPerEmail,
    now,
    TOO_MANY_REQUESTS,
  );
}

/** A correct password clears the account's failures (not the address's: one good account must not
 * let an address go on guessing at others). */
export async function recordSuccess(db: Db, keys: ThrottleKeys): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, keys.account));
}
