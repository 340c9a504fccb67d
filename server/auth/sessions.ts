/**
 * Sign-in sessions and their tokens: a session starts (the head of a refresh chain), its access token
 * is checked on every request (the session cache first), its refresh token is rotated, and it ends
 * (one session, or all of a user's). Whoever proved who the user is (a password, Google, a wallet, a
 * portal, a one-time code) asks `startSession`.
 */
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';

import type { Queryable } from '../db';
import { transaction } from '../db';
import type { User } from '../db/schema';
import { authSessions, refreshTokens, users } from '../db/schema';
import type { Deps } from '../deps';
import type { Authenticated } from '../http/auth';
import { unauthorized } from '../http/errors';
import { AUTH_MESSAGES } from './messages';
import type { SessionCache } from './session-cache';
import {
  hashToken,
  randomToken,
  signAccessToken,
  successorToken,
  verifyAccessToken,
} from './tokens';

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

/** `sessions`: the server's session cache (session-cache.ts), which `authenticate` asks first. */
export function createSessionService(
  { db, config, now }: Pick<Deps, 'db' | 'config' | 'now'>,
  sessions: SessionCache,
) {
  const settings = config.auth;

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
    /** Starts a session for a user whose identity was proven (a password, Google, a wallet …). */
    startSession: signIn,

    /** Ends every session of the user but `exceptSessionId` (in the caller's transaction). */
    revokeSessions,

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

export type SessionService = ReturnType<typeof createSessionService>;
