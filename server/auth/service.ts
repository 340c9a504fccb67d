/**
 * The rules of signing in, over the database. Routes validate the shape of a request; everything about
 * who may do what, and every token's life, is decided here.
 */
import { POINTS } from 'ayah-coach/rules';
import { and, desc, eq, gt, isNotNull, isNull, ne, sql } from 'drizzle-orm';

import type { Queryable } from '../db';
import { pgErrorCode, transaction, UNIQUE_VIOLATION } from '../db';
import { lockUser } from '../db/locks';
import type { OneTimePurpose, User } from '../db/schema';
import { authSessions, oneTimeTokens, refreshTokens, users } from '../db/schema';
import type { Deps } from '../deps';
import type { Authenticated } from '../http/auth';
import { AppError } from '../http/errors';
import type { PointsLedger } from '../ports';
import { resetMail, verificationMail } from './mail';
import { hashPassword, verifyDummy, verifyPassword } from './passwords';
import type { SessionCache } from './session-cache';
import type { AccountMailPurpose } from './throttle';
import {
  limitAccountMail,
  lockedFor,
  passwordGuard,
  recordAddressFailure,
  recordSuccess,
  reserveAttempt,
  THROTTLED,
  throttleKeys,
} from './throttle';
import {
  hashToken,
  randomToken,
  signAccessToken,
  successorToken,
  verifyAccessToken,
} from './tokens';

export const AUTH_MESSAGES = {
  registered: 'Registration successful. Please check your email to verify your account.',
  emailTaken: 'An account with this email already exists',
  invalidLogin: 'Invalid email or password',
  notVerified: 'Email not verified',
  throttled: THROTTLED,
  notAuthenticated: 'Not authenticated',
  invalidToken: 'Could not validate credentials',
  expiredToken: 'Token has expired',
  invalidVerifyToken: 'Invalid or expired verification token',
  alreadyVerified: 'This email is already verified. Please sign in.',
  invalidResetToken: 'Invalid or expired reset token',
  invalidRefreshToken: 'Invalid or expired refresh token',
  refreshReused: 'Refresh token already used; the session has been signed out',
  signedOut: 'Signed out',
  resendSent:
    'If an account with this email needs verification, a new verification email has been sent.',
  resendCooldown: (seconds: number) =>
    `If an account with this email needs verification, an email was sent recently. You can ask for another in ${seconds} seconds.`,
  resetSent: 'If an account with this email exists, a password reset email has been sent.',
  resetDone: 'Password has been reset successfully. Please sign in with your new password.',
  passwordChanged: 'Password changed successfully',
  wrongCurrentPassword: 'Current password is incorrect',
  samePassword: 'New password must be different from current password',
  noPassword: 'Password change is not available for Google or wallet accounts',
} as const;

/**
 * Two tabs renewing at once (issue 22 #4): the immediately previous refresh token, presented again
 * within this long of its use while its successor is still unused, gets that same successor again
 * (with a fresh access token of the same session) instead of signing the session out. Any other reuse,
 * or this one later, is reuse: the session is revoked.
 */
export const REFRESH_GRACE_MS = 10_000;

export interface SignedIn {
  user: User;
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

const WWW_AUTHENTICATE = { 'WWW-Authenticate': 'Bearer' };

function unauthorized(detail: string): AppError {
  return new AppError(401, detail, WWW_AUTHENTICATE);
}

function byEmail(email: string) {
  return sql`lower(${users.email}) = lower(${email.trim()})`;
}

/** `sessions`: the server's session cache (session-cache.ts), which `authenticate` asks first. */
export function createAuthService(deps: Deps, sessions: SessionCache, ledger: PointsLedger) {
  const { db, config, mailer, now } = deps;
  const settings = config.auth;
  const guardPassword = passwordGuard(db, settings.throttle, now);

  async function findByEmail(email: string): Promise<User | undefined> {
    const [user] = await db.select().from(users).where(byEmail(email)).limit(1);
    return user;
  }

  /**
   * The session an access token names, with its user: asked whenever the session cache does not know
   * it, so it is built once and (on PostgreSQL) prepared once per connection. Built on first use, so
   * that making the service asks nothing of the database.
   */
  let sessionOfTokenQuery: ReturnType<typeof prepareSessionOfToken> | undefined;
  const prepareSessionOfToken = () =>
    db
      .select({
        user: users,
        revokedAt: authSessions.revokedAt,
        expiresAt: authSessions.expiresAt,
      })
      .from(authSessions)
      .innerJoin(users, eq(users.id, authSessions.userId))
      .where(and(eq(authSessions.id, sql.placeholder('sid')), eq(users.id, sql.placeholder('sub'))))
      .limit(1)
      .prepare('auth_session_of_token');
  const sessionOfToken = () => (sessionOfTokenQuery ??= prepareSessionOfToken());

  async function findById(q: Queryable, id: string): Promise<User> {
    const [user] = await q.select().from(users).where(eq(users.id, id)).limit(1);
    if (!user) throw unauthorized(AUTH_MESSAGES.invalidToken);
    return user;
  }

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

  /** Locks the user's row: every transaction that changes a user's tokens takes it first. */
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

  async function accessToken(user: User, sessionId: string): Promise<string> {
    return signAccessToken(
      { sub: user.id, sid: sessionId, tv: user.tokenVersion },
      config.jwtSecret,
      now(),
      settings.accessTokenTtlSec,
    );
  }

  /** Starts a session (the head of a refresh chain) and records the sign-in. */
  async function signIn(
    q: Queryable,
    userId: string,
    extra: Partial<User> = {},
  ): Promise<SignedIn> {
    const at = now();
    const [user] = await q
      .update(users)
      .set({ ...extra, lastLogin: at })
      .where(eq(users.id, userId))
      .returning();
    if (!user) throw new Error(`user ${userId} vanished while signing in`);
    const expiresAt = new Date(at.getTime() + settings.sessionTtlMs);
    const [session] = await q
      .insert(authSessions)
      .values({ userId, createdAt: at, expiresAt })
      .returning({ id: authSessions.id });
    const refreshToken = randomToken();
    await q.insert(refreshTokens).values({
      sessionId: session!.id,
      tokenHash: hashToken(refreshToken),
      createdAt: at,
      expiresAt,
    });
    return {
      user,
      accessToken: await accessToken(user, session!.id),
      refreshToken,
      expiresIn: settings.accessTokenTtlSec,
    };
  }

  async function revokeSessions(q: Queryable, userId: string, exceptSessionId?: string) {
    const at = now();
    const scope = and(
      eq(authSessions.userId, userId),
      isNull(authSessions.revokedAt),
      exceptSessionId ? ne(authSessions.id, exceptSessionId) : undefined,
    );
    const revoked = await q
      .update(authSessions)
      .set({ revokedAt: at })
      .where(scope)
      .returning({ id: authSessions.id });
    for (const { id } of revoked) {
      await q
        .update(refreshTokens)
        .set({ revokedAt: at })
        .where(and(eq(refreshTokens.sessionId, id), isNull(refreshTokens.revokedAt)));
    }
  }

  async function revokeSession(q: Queryable, sessionId: string) {
    const at = now();
    await q
      .update(authSessions)
      .set({ revokedAt: at })
      .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
    await q
      .update(refreshTokens)
      .set({ revokedAt: at })
      .where(and(eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.revokedAt)));
  }

  return {
    /** Starts a session for a user whose identity another method proved (Google, a wallet). */
    startSession: signIn,

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
          const token = await issueOneTimeToken(
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
      return transaction(db, (tx) => signIn(tx, user.id));
    },

    /** The caller behind a bearer token: a valid JWT of a live session and the current token version. */
    async authenticate(header: string | undefined): Promise<Authenticated> {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
      if (!match) throw unauthorized(AUTH_MESSAGES.notAuthenticated);
      const result = await verifyAccessToken(match[1]!, config.jwtSecret, now());
      if (!result.ok) {
        throw unauthorized(
          result.reason === 'expired' ? AUTH_MESSAGES.expiredToken : AUTH_MESSAGES.invalidToken,
        );
      }
      const { sub, sid, tv } = result.claims;
      const known = sessions.get(sid, sub, tv);
      if (known) return { user: known, sessionId: sid };
      const ticket = sessions.ticket();
      const [row] = await sessionOfToken().execute({ sid, sub });
      if (!row || row.revokedAt || row.expiresAt <= now() || row.user.tokenVersion !== tv) {
        throw unauthorized(AUTH_MESSAGES.invalidToken);
      }
      sessions.put(ticket, sid, row.user, row.expiresAt);
      return { user: row.user, sessionId: sid };
    },

    async updateProfile(
      userId: string,
      input: { display_name?: string; bio?: string; interests?: string[] },
    ): Promise<User> {
      const changes: Partial<User> = {};
      if (input.display_name !== undefined) changes.displayName = input.display_name;
      if (input.bio !== undefined) changes.bio = input.bio;
      if (input.interests !== undefined) changes.interests = input.interests;
      if (Object.keys(changes).length === 0) return findById(db, userId);
      const [user] = await db
        .update(users)
        .set({ ...changes, updatedAt: now() })
        .where(eq(users.id, userId))
        .returning();
      return user!;
    },

    /** Idempotent: the flag is set and the onboarding points are awarded once, however often it is called. */
    async completeOnboarding(userId: string, interests?: string[]): Promise<User> {
      return transaction(db, async (tx) => {
        // The ledger's rule: whoever changes a balance holds the user lock first.
        await lockUser(tx, userId);
        const [user] = await tx
          .update(users)
          .set({ onboardingCompleted: true, updatedAt: now(), ...(interests && { interests }) })
          .where(eq(users.id, userId))
          .returning();
        await ledger.award(tx, userId, {
          key: 'onboarding',
          amount: POINTS.onboardingAward,
          category: 'onboarding',
          description: 'Completed onboarding',
          at: now(),
        });
        return user!;
      });
    },

    /** Confirms the address and signs the user in. */
    async verifyEmail(token: string): Promise<SignedIn> {
      const signedIn = await transaction(db, async (tx) => {
        const owner = await ownerOf(tx, token, 'verify_email');
        if (!owner) return null;
        await lockUser(tx, owner);
        const userId = await consumeOneTimeToken(tx, token, 'verify_email');
        if (!userId) return null;
        await retireOneTimeTokens(tx, userId, 'verify_email');
        const [current] = await tx.select().from(users).where(eq(users.id, userId));
        return signIn(tx, userId, { emailVerifiedAt: current?.emailVerifiedAt ?? now() });
      });
      if (!signedIn) {
        // A link opened again once it did its work: say so, rather than 'invalid' (409, not 400).
        if (await usedByVerifiedAccount(token))
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
      const left = await cooldownLeftMs(user.id, 'verify_email');
      if (left > 0) return { retryAfterSec: Math.ceil(left / 1000), sent: false };
      const token = await issueOneTimeToken(db, user.id, 'verify_email', settings.verifyTokenTtlMs);
      mailer.send(verificationMail(user.email, user.displayName, link('verify-email', token)));
      return { retryAfterSec: cooldownSec, sent: true };
    },

    async requestPasswordReset(email: string): Promise<void> {
      const user = await findByEmail(email);
      // Google and wallet accounts have no password to reset.
      if (!user?.email || !user.passwordHash) return;
      const address = user.email;
      if (await mailedRecently(user.id, 'password_reset')) return;
      const token = await transaction(db, async (tx) => {
        await lockUser(tx, user.id);
        await retireOneTimeTokens(tx, user.id, 'password_reset');
        return issueOneTimeToken(tx, user.id, 'password_reset', settings.resetTokenTtlMs);
      });
      mailer.send(resetMail(address, user.displayName, link('reset-password', token)));
    },

    /** Sets the new password and ends every session of the user; the mailbox is proven, so it is verified. */
    async confirmPasswordReset(token: string, newPassword: string): Promise<void> {
      const at = now();
      // Hash only for a live token, so that guessing tokens costs the server nothing.
      const [live] = await db
        .select({ id: oneTimeTokens.id })
        .from(oneTimeTokens)
        .where(
          and(
            eq(oneTimeTokens.tokenHash, hashToken(token)),
            eq(oneTimeTokens.purpose, 'password_reset'),
            isNull(oneTimeTokens.usedAt),
            gt(oneTimeTokens.expiresAt, at),
          ),
        )
        .limit(1);
      if (!live) throw new AppError(400, AUTH_MESSAGES.invalidResetToken);
      const passwordHash = await hashPassword(newPassword);
      const email = await transaction(db, async (tx) => {
        const owner = await ownerOf(tx, token, 'password_reset');
        if (!owner) return null;
        await lockUser(tx, owner);
        const userId = await consumeOneTimeToken(tx, token, 'password_reset');
        if (!userId) return null;
        await retireOneTimeTokens(tx, userId, 'password_reset');
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
        await revokeSessions(tx, userId);
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
        await retireOneTimeTokens(tx, user.id, 'password_reset');
        await revokeSessions(tx, user.id, sessionId);
      });
    },

    /**
     * Exchanges a refresh token for a new access token and a new refresh token (rotation). A refresh
     * token used a second time means it was copied: the whole session (its chain) is signed out,
     * except the immediately previous token within REFRESH_GRACE_MS (two tabs renewing at once).
     */
    async refreshWithToken(token: string): Promise<SignedIn> {
      const at = now();
      const tokenHash = hashToken(token);
      const outcome = await transaction(db, async (tx) => {
        const [known] = await tx
          .select({ sessionId: refreshTokens.sessionId })
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, tokenHash))
          .limit(1);
        if (!known) return { ok: false, error: AUTH_MESSAGES.invalidRefreshToken } as const;
        // Lock the session first (then its tokens): concurrent uses of a chain queue up in one order.
        await tx
          .select({ id: authSessions.id })
          .from(authSessions)
          .where(eq(authSessions.id, known.sessionId))
          .for('update');
        const [used] = await tx
          .update(refreshTokens)
          .set({ usedAt: at })
          .where(
            and(
              eq(refreshTokens.tokenHash, tokenHash),
              isNull(refreshTokens.usedAt),
              isNull(refreshTokens.revokedAt),
              gt(refreshTokens.expiresAt, at),
            ),
          )
          .returning({ sessionId: refreshTokens.sessionId });
        if (!used) {
          const [current] = await tx
            .select({ usedAt: refreshTokens.usedAt, revokedAt: refreshTokens.revokedAt })
            .from(refreshTokens)
            .where(eq(refreshTokens.tokenHash, tokenHash))
            .limit(1);
          if (!current?.usedAt)
            return { ok: false, error: AUTH_MESSAGES.invalidRefreshToken } as const;
          // A second tab renewing with the same token a moment later: its successor, if still unused.
          if (!current.revokedAt && at.getTime() - current.usedAt.getTime() <= REFRESH_GRACE_MS) {
            const successor = successorToken(config.jwtSecret, token);
            const [row] = await tx
              .select({ user: users, session: authSessions })
              .from(refreshTokens)
              .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
              .innerJoin(users, eq(users.id, authSessions.userId))
              .where(
                and(
                  eq(refreshTokens.tokenHash, hashToken(successor)),
                  eq(refreshTokens.sessionId, known.sessionId),
                  isNull(refreshTokens.usedAt),
                  isNull(refreshTokens.revokedAt),
                  gt(refreshTokens.expiresAt, at),
                  isNull(authSessions.revokedAt),
                  gt(authSessions.expiresAt, at),
                ),
              )
              .limit(1);
            if (row) {
              return {
                ok: true,
                user: row.user,
                sessionId: row.session.id,
                refreshToken: successor,
              } as const;
            }
          }
          const [session] = await tx
            .update(authSessions)
            .set({ revokedAt: at })
            .where(and(eq(authSessions.id, known.sessionId), isNull(authSessions.revokedAt)))
            .returning({ id: authSessions.id });
          if (session) {
            await tx
              .update(refreshTokens)
              .set({ revokedAt: at })
              .where(and(eq(refreshTokens.sessionId, session.id), isNull(refreshTokens.revokedAt)));
          }
          return { ok: false, error: AUTH_MESSAGES.refreshReused } as const;
        }
        const [row] = await tx
          .select({ user: users, session: authSessions })
          .from(authSessions)
          .innerJoin(users, eq(users.id, authSessions.userId))
          .where(eq(authSessions.id, used.sessionId))
          .limit(1);
        if (!row || row.session.revokedAt || row.session.expiresAt <= at) {
          return { ok: false, error: AUTH_MESSAGES.invalidRefreshToken } as const;
        }
        const next = successorToken(config.jwtSecret, token);
        await tx.insert(refreshTokens).values({
          sessionId: row.session.id,
          tokenHash: hashToken(next),
          createdAt: at,
          expiresAt: row.session.expiresAt,
        });
        return { ok: true, user: row.user, sessionId: row.session.id, refreshToken: next } as const;
      });
      if (!outcome.ok) throw unauthorized(outcome.error);
      return {
        user: outcome.user,
        accessToken: await accessToken(outcome.user, outcome.sessionId),
        refreshToken: outcome.refreshToken,
        expiresIn: settings.accessTokenTtlSec,
      };
    },

    /** Signs out one session: the session and every refresh token of its chain stop working. */
    async logout(sessionId: string): Promise<void> {
      await transaction(db, (tx) => revokeSession(tx, sessionId));
    },

    /** Signs out the session a refresh token belongs to (a client whose access token has expired). */
    async logoutWithRefreshToken(token: string): Promise<void> {
      const [known] = await db
        .select({ sessionId: refreshTokens.sessionId })
        .from(refreshTokens)
        .where(and(eq(refreshTokens.tokenHash, hashToken(token)), isNull(refreshTokens.revokedAt)))
        .limit(1);
      if (!known) throw unauthorized(AUTH_MESSAGES.invalidRefreshToken);
      await transaction(db, (tx) => revokeSession(tx, known.sessionId));
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
