/**
 * The tokens that mail links carry (verify an address, reset a password): issued with a lifetime,
 * stored only as SHA-256, used once. Also how recently one went out (the mail cooldown), which is
 * read from the same rows.
 */
import { and, desc, eq, gt, isNotNull, isNull } from 'drizzle-orm';

import type { Queryable } from '../db';
import { lockUser } from '../db/locks';
import type { OneTimePurpose } from '../db/schema';
import { oneTimeTokens, users } from '../db/schema';
import type { Deps } from '../deps';
import { hashToken, randomToken } from './tokens';

export function createOneTimeTokens({ db, config, now }: Pick<Deps, 'db' | 'config' | 'now'>) {
  const settings = config.auth;

  async function issueOneTimeToken(
    q: Queryable,
    userId: string,
    purpose: OneTimePurpose,
    ttlMs: number,
  ): Promise<string> {
    const token = randomToken();
    const at = now();
    await q.insert(oneTimeTokens).values({
      userId,
      purpose,
      tokenHash: hashToken(token),
      createdAt: at,
      expiresAt: new Date(at.getTime() + ttlMs),
    });
    return token;
  }

  /** The user a one-time token belongs to, if the token exists (used or not). */
  async function ownerOf(q: Queryable, token: string, purpose: OneTimePurpose) {
    const [row] = await q
      .select({ userId: oneTimeTokens.userId })
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.tokenHash, hashToken(token)), eq(oneTimeTokens.purpose, purpose)))
      .limit(1);
    return row?.userId ?? null;
  }

  /** True when the verification token was used (or retired) and its account is verified. */
  async function usedByVerifiedAccount(token: string): Promise<boolean> {
    const [row] = await db
      .select({ id: oneTimeTokens.id })
      .from(oneTimeTokens)
      .innerJoin(users, eq(users.id, oneTimeTokens.userId))
      .where(
        and(
          eq(oneTimeTokens.tokenHash, hashToken(token)),
          eq(oneTimeTokens.purpose, 'verify_email'),
          isNotNull(oneTimeTokens.usedAt),
          isNotNull(users.emailVerifiedAt),
        ),
      )
      .limit(1);
    return !!row;
  }

  /** True when a token of the purpose is unused and unexpired (looked at, not used). */
  async function isLive(token: string, purpose: OneTimePurpose): Promise<boolean> {
    const [live] = await db
      .select({ id: oneTimeTokens.id })
      .from(oneTimeTokens)
      .where(
        and(
          eq(oneTimeTokens.tokenHash, hashToken(token)),
          eq(oneTimeTokens.purpose, purpose),
          isNull(oneTimeTokens.usedAt),
          gt(oneTimeTokens.expiresAt, now()),
        ),
      )
      .limit(1);
    return !!live;
  }

  /** Uses a one-time token atomically: of any number of concurrent uses, exactly one gets the user id. */
  async function consumeOneTimeToken(
    q: Queryable,
    token: string,
    purpose: OneTimePurpose,
  ): Promise<string | null> {
    const at = now();
    const [row] = await q
      .update(oneTimeTokens)
      .set({ usedAt: at })
      .where(
        and(
          eq(oneTimeTokens.tokenHash, hashToken(token)),
          eq(oneTimeTokens.purpose, purpose),
          isNull(oneTimeTokens.usedAt),
          gt(oneTimeTokens.expiresAt, at),
        ),
      )
      .returning({ userId: oneTimeTokens.userId });
    return row?.userId ?? null;
  }

  /** Marks every unused token of the purpose used (older links stop working). */
  async function retireOneTimeTokens(q: Queryable, userId: string, purpose: OneTimePurpose) {
    await q
      .update(oneTimeTokens)
      .set({ usedAt: now() })
      .where(
        and(
          eq(oneTimeTokens.userId, userId),
          eq(oneTimeTokens.purpose, purpose),
          isNull(oneTimeTokens.usedAt),
        ),
      );
  }

  /**
   * Uses up a mail link's token under its owner's lock (db/locks.ts: the lock order starts with the
   * user) and retires the owner's other tokens of the purpose: the owner's id, or null when the token
   * is unknown, used or expired. Runs in the caller's transaction.
   */
  async function takeOneTimeToken(
    tx: Queryable,
    token: string,
    purpose: OneTimePurpose,
  ): Promise<string | null> {
    const owner = await ownerOf(tx, token, purpose);
    if (!owner) return null;
    await lockUser(tx, owner);
    const userId = await consumeOneTimeToken(tx, token, purpose);
    if (!userId) return null;
    await retireOneTimeTokens(tx, userId, purpose);
    return userId;
  }

  /** True when a mail of this purpose went to the user within the cooldown (no mail bombing). */
  async function mailedRecently(userId: string, purpose: OneTimePurpose): Promise<boolean> {
    return (await cooldownLeftMs(userId, purpose)) > 0;
  }

  /** How long until another mail of this purpose may go to the user (0: now). */
  async function cooldownLeftMs(userId: string, purpose: OneTimePurpose): Promise<number> {
    if (settings.mailCooldownMs <= 0) return 0;
    const [last] = await db
      .select({ createdAt: oneTimeTokens.createdAt })
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose)))
      .orderBy(desc(oneTimeTokens.createdAt))
      .limit(1);
    if (!last) return 0;
    return Math.max(0, settings.mailCooldownMs - (now().getTime() - last.createdAt.getTime()));
  }

  return {
    issueOneTimeToken,
    usedByVerifiedAccount,
    isLive,
    takeOneTimeToken,
    retireOneTimeTokens,
    mailedRecently,
    cooldownLeftMs,
  };
}

export type OneTimeTokens = ReturnType<typeof createOneTimeTokens>;
