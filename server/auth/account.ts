/**
 * The account service behind `GET /export` and `DELETE /account` (account-routes.ts): a student's whole
 * account as one JSON document, and its removal.
 * Beyond the spec, because these are children's accounts (issue 12).
 *
 * Deletion is confirmed by what the account signs in with: an email account types its email; a
 * Google account types its display name within ten minutes of a fresh Google sign-in (its session
 * began then: a token kept alive by refreshing for days proves nothing of who holds it now); a wallet-only
 * account signs a fresh nonce from `POST /web3/nonce` and sends `{confirm: <address>, message,
 * signature}`. Every row of the student goes in one transaction: the user row, whose foreign keys
 * cascade to every table that names it (sessions and refresh tokens, so every token is 401 afterwards,
 * the avatar, chats, messages, goals, ledger, conversions, memory), plus the rows keyed by the email or
 * the address instead of the id (sign-in throttling, wallet nonces).
 */
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { verifyMessage } from 'ethers';
import { SiweMessage } from 'siwe';
import { transaction } from '../db';
import {
  authSessions,
  avatars,
  loginThrottle,
  portalIdentities,
  siweNonces,
  users,
  type User,
} from '../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../http/errors';
import { forgetRateLimits } from '../http/rate-limit';
import { verifyPassword } from './passwords';
import { passwordGuard } from './throttle';
import type { DeleteAccountInput } from './schemas';
import { publicUser } from './schemas';

export const ACCOUNT_MESSAGES = {
  deleted: 'Your account and all its data were deleted',
  confirmEmail: 'Type your email address to confirm',
  confirmName: 'Type your display name to confirm',
  signatureRequired: 'Sign a fresh message with your wallet to confirm',
  invalidSignature: 'The signature does not confirm this account',
  googleSignInAgain:
    'To delete a Google account, sign out, sign in with Google again, and delete it within 10 minutes',
  passwordRequired: 'Enter your password to confirm',
  wrongPassword: 'The password is not correct',
  signInAgain: 'To delete your account, sign out, sign in again, and delete it within 5 minutes',
} as const;

/** How recent the sign-in of an account without a password (a portal's student) must be. */
export const FRESH_SIGN_IN_MS = 5 * 60_000;

/** How recent a Google account's sign-in must be to delete it. */
export const GOOGLE_FRESH_SIGN_IN_MS = 10 * 60_000;

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

type Rows = Record<string, unknown>[];

/** A domain's rows of one user for the export: its keys of the document, each a list. */
interface AccountRows<T extends Record<string, Rows>> {
  exportRows(userId: string): Promise<T>;
}

/**
 * The ports the export asks for, one per domain (server/app.ts hands in each domain's service).
 * Deletion needs none: every table that names the user cascades from the user row (a safety alert
 * keeps its record with the student set null; the flagged text, stored under the student, goes).
 */
export interface AccountParts {
  chat: AccountRows<{ chats: Rows }>;
  goals: AccountRows<{ goals: Rows }>;
  points: AccountRows<{ points_ledger: Rows; conversions: Rows }>;
  memory: AccountRows<{ learning_memory: Rows }>;
  /** The student's classes and the safety alerts about them (issue 24). */
  classes: AccountRows<{ classes: Rows; safety_alerts: Rows }>;
}

export function createAccountService(deps: Deps, parts: AccountParts) {
  const { db, now, config } = deps;
  const domain = new URL(config.publicUrl).host;
  const guardPassword = passwordGuard(db, config.auth.throttle, now);

  /** Throws 400 unless `input` confirms deleting `user` (see the file's comment). */
  async function checkConfirmation(
    user: User,
    sessionId: string,
    input: DeleteAccountInput,
  ): Promise<string | null> {
    if (user.walletAddress && !user.email) {
      if (!input.message || !input.signature || !same(input.confirm, user.walletAddress))
        throw new AppError(400, ACCOUNT_MESSAGES.signatureRequired);
      let nonce: string;
      try {
        const message = new SiweMessage(input.message);
        if (message.prepareMessage() !== input.message || message.domain !== domain)
          throw new Error('other message');
        if (!same(verifyMessage(input.message, input.signature), user.walletAddress))
          throw new Error('other signer');
        nonce = message.nonce;
      } catch {
        throw new AppError(400, ACCOUNT_MESSAGES.invalidSignature);
      }
      return nonce;
    }
    // A portal's student (token exchange) has no email of ours either: the display name confirms
    // (the portal, not Ayah, knows who is at the keyboard).
    if (!user.email && !user.isGoogle) {
      if (!same(input.confirm, user.displayName))
        throw new AppError(400, ACCOUNT_MESSAGES.confirmName);
      await requireFreshSignIn(sessionId, FRESH_SIGN_IN_MS, ACCOUNT_MESSAGES.signInAgain);
      return null;
    }
    if (user.isGoogle) {
      if (!same(input.confirm, user.displayName))
        throw new AppError(400, ACCOUNT_MESSAGES.confirmName);
      await requireFreshSignIn(
        sessionId,
        GOOGLE_FRESH_SIGN_IN_MS,
        ACCOUNT_MESSAGES.googleSignInAgain,
      );
      return null;
    }
    if (!user.email || !same(input.confirm, user.email))
      throw new AppError(400, ACCOUNT_MESSAGES.confirmEmail);
    // The access token alone must not delete an account: its password (login's throttle), or,
    // without one, a sign-in within the last minutes.
    if (!user.passwordHash) {
      await requireFreshSignIn(sessionId, FRESH_SIGN_IN_MS, ACCOUNT_MESSAGES.signInAgain);
      return null;
    }
    if (!input.password) throw new AppError(400, ACCOUNT_MESSAGES.passwordRequired);
    await guardPassword(user);
    if (!(await verifyPassword(user.passwordHash, input.password)))
      throw new AppError(400, ACCOUNT_MESSAGES.wrongPassword);
    return null;
  }

  /** Throws 403 `detail` unless the caller's session began within `withinMs`. */
  async function requireFreshSignIn(sessionId: string, withinMs: number, detail: string) {
    const [session] = await db
      .select({ createdAt: authSessions.createdAt })
      .from(authSessions)
      .where(eq(authSessions.id, sessionId));
    const signedInAt = session?.createdAt.getTime() ?? 0;
    if (now().getTime() - signedInAt > withinMs) throw new AppError(403, detail);
  }

  return {
    async export(user: User) {
      const id = user.id;
      const [avatar] = await db.select().from(avatars).where(eq(avatars.userId, id));
      // Each domain answers its own rows, in the document's order.
      const chats = await parts.chat.exportRows(id);
      const goalRows = await parts.goals.exportRows(id);
      const points = await parts.points.exportRows(id);
      const memory = await parts.memory.exportRows(id);
      const portals = await db
        .select()
        .from(portalIdentities)
        .where(eq(portalIdentities.userId, id))
        .orderBy(asc(portalIdentities.createdAt));

      const school = await parts.classes.exportRows(id);

      const iso = (date: Date | null) => (date ? date.toISOString() : null);
      return {
        exported_at: now().toISOString(),
        user: { ...publicUser(user), updated_at: iso(user.updatedAt) },
        avatar: avatar
          ? {
              content_type: avatar.contentType,
              data_url: `data:${avatar.contentType};base64,${avatar.bytes.toString('base64')}`,
            }
          : null,
        ...chats,
        ...goalRows,
        ...points,
        ...memory,
        portal_identities: portals.map((row) => ({
          issuer: row.issuer,
          subject: row.subject,
          email: row.email,
          created_at: row.createdAt.toISOString(),
        })),
        ...school,
      };
    },

    /** Removes `user` and every row of theirs in one transaction. */
    async delete(user: User, sessionId: string, input: DeleteAccountInput): Promise<void> {
      const nonce = await checkConfirmation(user, sessionId, input);
      await transaction(db, async (tx) => {
        if (nonce !== null) {
          const [claimed] = await tx
            .delete(siweNonces)
            .where(
              and(
                eq(siweNonces.nonce, nonce),
                eq(siweNonces.walletAddress, user.walletAddress!.toLowerCase()),
                gt(siweNonces.expiresAt, now()),
              ),
            )
            .returning({ nonce: siweNonces.nonce });
          if (!claimed) throw new AppError(400, ACCOUNT_MESSAGES.invalidSignature);
        }
        // Every table that names the user cascades from this row (server/db/schema.ts).
        await tx.delete(users).where(eq(users.id, user.id));
        if (user.email)
          await tx
            .delete(loginThrottle)
            .where(
              inArray(loginThrottle.key, [
                `account:${user.email.toLowerCase()}`,
                `account:${user.email}`,
              ]),
            );
        if (user.walletAddress)
          await tx
            .delete(siweNonces)
            .where(eq(siweNonces.walletAddress, user.walletAddress.toLowerCase()));
        // Rate-limit counts keyed by the student's id or address go too.
        await forgetRateLimits(tx, user.email ? [user.id, user.email] : [user.id]);
      });
      // And the mails to them kept in the outbox (links to an account that is gone).
      if (user.email) await deps.mailer.forget(user.email);
    },
  };
}
