/**
 * Email and password accounts: sign-up and its verification mail, login (throttled per account and
 * address), a forgotten password's reset mail, and changing the password. The tokens the mails carry
 * are one-time-tokens.ts's; the sessions a login or a verification starts are sessions.ts's.
 */
import { eq, sql } from 'drizzle-orm';

import { pgErrorCode, transaction, UNIQUE_VIOLATION } from '../db';
import { lockUser } from '../db/locks';
import type { User } from '../db/schema';
import { users } from '../db/schema';
import type { Deps } from '../deps';
import type { Authenticated } from '../http/auth';
import { AppError, unauthorized } from '../http/errors';
import { resetMail, verificationMail } from './mail';
import { AUTH_MESSAGES } from './messages';
import type { OneTimeTokens } from './one-time-tokens';
import { hashPassword, verifyDummy, verifyPassword } from './passwords';
import type { SessionService, SignedIn } from './sessions';
import type { AccountMailPurpose } from './throttle';
import {
  limitAccountMail,
  lockedFor,
  passwordGuard,
  recordAddressFailure,
  recordSuccess,
  reserveAttempt,
  throttleKeys,
} from './throttle';

function byEmail(email: string) {
  return sql`lower(${users.email}) = lower(${email.trim()})`;
}

export function createCredentialService(
  deps: Pick<Deps, 'db' | 'config' | 'mailer' | 'now'>,
  sessions: Pick<SessionService, 'startSession' | 'revokeSessions'>,
  tokens: OneTimeTokens,
) {
  const { db, config, mailer, now } = deps;
  const settings = config.auth;
  const guardPassword = passwordGuard(db, settings.throttle, now);

  async function findByEmail(email: string): Promise<User | undefined> {
    const [user] = await db.select().from(users).where(byEmail(email)).limit(1);
    return user;
  }

  /**
   * Resend requests for addresses that get no mail (unknown, verified, Google or wallet), by lower-cased
   * address: they keep the same cooldown as a real one, so the answer tells no account apart.
   */
  const resendAsked = new Map<string, number>();
  function phantomCooldownLeftMs(email: string): number {
    if (settings.mailCooldownMs <= 0) return 0;
    const key = email.trim().toLowerCase();
    const at = now().getTime();
    const last = resendAsked.get(key);
    if (last !== undefined && at - last < settings.mailCooldownMs) {
      return settings.mailCooldownMs - (at - last);
    }
    resendAsked.delete(key);
    resendAsked.set(key, at);
    // Bounded: the oldest requests go first (a Map iterates in insertion order).
    if (resendAsked.size > 10_000) resendAsked.delete(resendAsked.keys().next().value!);
    return 0;
  }

  function link(page: string, token: string): string {
    return `${config.publicUrl}/${page}?token=${encodeURIComponent(token)}`;
  }

  return {
    /** Registrations, resends and reset requests per client address and per email (429 beyond). */
    limitAccountMail: (purpose: AccountMailPurpose, email: string, address: string) =>
      limitAccountMail(db, purpose, email, address, config.limits, now()),

    async register(input: {
      email: string;
      password: string;
      display_name: string;
    }): Promise<User> {
      const passwordHash = await hashPassword(input.password);
      const at = now();
      let created: { user: User; token: string };
      try {
        created = await transaction(db, async (tx) => {
          const [user] = await tx
            .insert(users)
            .values({
              email: input.email,
              passwordHash,
              displayName: input.display_name,
              createdAt: at,
              updatedAt: at,
              termsAcceptedAt: at,
              privacyAcceptedAt: at,
            })
            .returning();
          const token = await tokens.issueOneTimeToken(
            tx,
            user!.id,
            'verify_email',
            settings.verifyTokenTtlMs,
          );
          return { user: user!, token };
        });
      } catch (error) {
        if (pgErrorCode(error) === UNIQUE_VIOLATION)
          throw new AppError(409, AUTH_MESSAGES.emailTaken);
        throw error;
      }
      const { user, token } = created;
      mailer.send(verificationMail(input.email, user.displayName, link('verify-email', token)));
      return user;
    },

    async login(email: string, password: string, address: string): Promise<SignedIn> {
      const keys = throttleKeys(email, address);
      const { throttle } = settings;
      // The address's lock is read; the account's attempt is counted and checked in one statement.
      let wait = await lockedFor(db, [keys.address], now());
      if (wait <= 0) {
        wait = await reserveAttempt(
          db,
          keys.account,
          throttle.account,
          throttle.forgetAfterMs,
          now(),
        );
      }
      if (wait > 0) {
        throw new AppError(429, AUTH_MESSAGES.throttled, {
          'Retry-After': String(Math.ceil(wait / 1000)),
        });
      }
      const user = await findByEmail(email);
      let ok = false;
      if (user?.passwordHash) ok = await verifyPassword(user.passwordHash, password);
      else await verifyDummy(password); // an unknown address takes as long as a wrong password
      if (!user || !ok) {
        await recordAddressFailure(db, keys, throttle, now());
        throw unauthorized(AUTH_MESSAGES.invalidLogin);
      }
      await recordSuccess(db, keys);
      // Only a caller who knows the password learns that the address is unverified.
      if (!user.emailVerifiedAt) throw new AppError(403, AUTH_MESSAGES.notVerified);
      return transaction(db, (tx) => sessions.startSession(tx, user.id));
    },

    /** Confirms the address and signs the user in. */
    async verifyEmail(token: string): Promise<SignedIn> {
      const signedIn = await transaction(db, async (tx) => {
        const userId = await tokens.takeOneTimeToken(tx, token, 'verify_email');
        if (!userId) return null;
        const [current] = await tx.select().from(users).where(eq(users.id, userId));
        return sessions.startSession(tx, userId, {
          emailVerifiedAt: current?.emailVerifiedAt ?? now(),
        });
      });
      if (!signedIn) {
        // A link opened again once it did its work: say so, rather than 'invalid' (409, not 400).
        if (await tokens.usedByVerifiedAccount(token))
          throw new AppError(409, AUTH_MESSAGES.alreadyVerified);
        throw new AppError(400, AUTH_MESSAGES.invalidVerifyToken);
      }
      return signedIn;
    },

    /**
     * Mails a new verification link unless one went out within the cooldown; answers, the same way for
     * every address, how many seconds until another can be asked for (0 with no cooldown).
     */
    async resendVerification(email: string): Promise<{ retryAfterSec: number; sent: boolean }> {
      const cooldownSec = Math.ceil(settings.mailCooldownMs / 1000);
      const user = await findByEmail(email);
      if (!user?.email || user.emailVerifiedAt || !user.passwordHash) {
        const left = phantomCooldownLeftMs(email);
        return left > 0
          ? { retryAfterSec: Math.ceil(left / 1000), sent: false }
          : { retryAfterSec: cooldownSec, sent: true };
      }
      const left = await tokens.cooldownLeftMs(user.id, 'verify_email');
      if (left > 0) return { retryAfterSec: Math.ceil(left / 1000), sent: false };
      const token = await tokens.issueOneTimeToken(
        db,
        user.id,
        'verify_email',
        settings.verifyTokenTtlMs,
      );
      mailer.send(verificationMail(user.email, user.displayName, link('verify-email', token)));
      return { retryAfterSec: cooldownSec, sent: true };
    },

    async requestPasswordReset(email: string): Promise<void> {
      const user = await findByEmail(email);
      // Google and wallet accounts have no password to reset.
      if (!user?.email || !user.passwordHash) return;
      const address = user.email;
      if (await tokens.mailedRecently(user.id, 'password_reset')) return;
      const token = await transaction(db, async (tx) => {
        await lockUser(tx, user.id);
        await tokens.retireOneTimeTokens(tx, user.id, 'password_reset');
        return tokens.issueOneTimeToken(tx, user.id, 'password_reset', settings.resetTokenTtlMs);
      });
      mailer.send(resetMail(address, user.displayName, link('reset-password', token)));
    },

    /** Sets the new password and ends every session of the user; the mailbox is proven, so it is verified. */
    async confirmPasswordReset(token: string, newPassword: string): Promise<void> {
      // Hash only for a live token, so that guessing tokens costs the server nothing.
      const live = await tokens.isLive(token, 'password_reset');
      if (!live) throw new AppError(400, AUTH_MESSAGES.invalidResetToken);
      const passwordHash = await hashPassword(newPassword);
      const email = await transaction(db, async (tx) => {
        const userId = await tokens.takeOneTimeToken(tx, token, 'password_reset');
        if (!userId) return null;
        const [user] = await tx
          .update(users)
          .set({
            passwordHash,
            tokenVersion: sql`${users.tokenVersion} + 1`,
            emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now().toISOString()}::timestamptz)`,
            updatedAt: now(),
          })
          .where(eq(users.id, userId))
          .returning({ email: users.email });
        await sessions.revokeSessions(tx, userId);
        return user!.email ?? '';
      });
      if (email === null) throw new AppError(400, AUTH_MESSAGES.invalidResetToken);
      // Whoever holds the mailbox may sign in again at once, even if the account was throttled.
      if (email) await recordSuccess(db, throttleKeys(email, ''));
    },

    /** Changes the password and signs out every other session; the caller's own stays. */
    async changePassword(
      auth: Authenticated,
      currentPassword: string,
      newPassword: string,
    ): Promise<void> {
      const { user, sessionId } = auth;
      if (!user.passwordHash) throw new AppError(403, AUTH_MESSAGES.noPassword);
      // A stolen token must not guess the password here: login's account throttle, same key.
      const keys = await guardPassword(user);
      if (!(await verifyPassword(user.passwordHash, currentPassword))) {
        throw new AppError(400, AUTH_MESSAGES.wrongCurrentPassword);
      }
      await recordSuccess(db, keys);
      if (currentPassword === newPassword) throw new AppError(400, AUTH_MESSAGES.samePassword);
      const passwordHash = await hashPassword(newPassword);
      await transaction(db, async (tx) => {
        await tx.update(users).set({ passwordHash, updatedAt: now() }).where(eq(users.id, user.id));
        await tokens.retireOneTimeTokens(tx, user.id, 'password_reset');
        await sessions.revokeSessions(tx, user.id, sessionId);
      });
    },
  };
}

export type CredentialService = ReturnType<typeof createCredentialService>;
