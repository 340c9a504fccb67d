/**
 * The account service behind `GET /export` and `DELETE /account` (routes.ts): a student's whole
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

import { transaction } from '../../db';
import {
  authSessions,
  avatars,
  loginThrottle,
  portalIdentities,
  siweNonces,
  type User,
  users,
} from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../http/errors';
import { forgetRateLimits } from '../../http/rate-limit';
import { verifyPassword } from '../passwords';
import type { DeleteAccountInput } from '../schemas';
import { publicUser } from '../schemas';
import { passwordGuard } from '../throttle';

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
  /** One chat at a time, its messages page by page: the export writes them as they come. */
  chat: {
    exportChats(
      userId: string,
    ): AsyncIterable<{ chat: Rows[number]; messages: AsyncIterable<Rows> }>;
  };
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
    /**
     * The whole account as one JSON document, written as it is read (issue 22 #9): the chats, the
     * part that grows without bound, go one page of messages at a time, so a large account's export
     * neither builds one big string nor holds the server's memory. The other parts are capped (memory
     * rows) or small, and are read whole. A failure midway ends the stream (the download is cut).
     */
    exportStream(user: User): ReadableStream<Uint8Array> {
      const id = user.id;
      const iso = (date: Date | null) => (date ? date.toISOString() : null);
      const key = (name: string, value: unknown) =>
        `${JSON.stringify(name)}:${JSON.stringify(value)}`;
      async function* pieces(): AsyncGenerator<string> {
        const [avatar] = await db.select().from(avatars).where(eq(avatars.userId, id));
        yield '{' + key('exported_at', now().toISOString());
        yield ',' + key('user', { ...publicUser(user), updated_at: iso(user.updatedAt) });
        yield (
          ',' +
          key(
            'avatar',
            avatar
              ? {
                  content_type: avatar.contentType,
                  data_url: `data:${avatar.contentType};base64,${avatar.bytes.toString('base64')}`,
                }
              : null,
          )
        );
        yield ',"chats":[';
        let firstChat = true;
        for await (const { chat, messages } of parts.chat.exportChats(id)) {
          // The chat's own fields, then its messages as they are read.
          yield (firstChat ? '' : ',') + JSON.stringify(chat).slice(0, -1) + ',"messages":[';
          firstChat = false;
          let firstMessage = true;
          for await (const page of messages) {
            for (const message of page) {
              yield (firstMessage ? '' : ',') + JSON.stringify(message);
              firstMessage = false;
            }
          }
          yield ']}';
        }
        yield ']';
        // Each domain answers its own rows, in the document's order.
        const rest: Record<string, unknown> = {
          ...(await parts.goals.exportRows(id)),
          ...(await parts.points.exportRows(id)),
          ...(await parts.memory.exportRows(id)),
        };
        const portals = await db
          .select()
          .from(portalIdentities)
          .where(eq(portalIdentities.userId, id))
          .orderBy(asc(portalIdentities.createdAt));
        rest.portal_identities = portals.map((row) => ({
          issuer: row.issuer,
          subject: row.subject,
          email: row.email,
          created_at: row.createdAt.toISOString(),
        }));
        Object.assign(rest, await parts.classes.exportRows(id));
        for (const [name, value] of Object.entries(rest)) yield ',' + key(name, value);
        yield '}';
      }
      return textStream(pieces());
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

/** About how much text the export gathers before it hands a chunk to the connection. */
const EXPORT_CHUNK_CHARS = 64 * 1024;

/**
 * `pieces` as a byte stream, read only as fast as the connection takes it (pull): the pieces are
 * gathered into chunks of about EXPORT_CHUNK_CHARS. A failure of `pieces` errors the stream, and a
 * client that goes away stops it.
 */
function textStream(pieces: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = '';
      while (chunk.length < EXPORT_CHUNK_CHARS) {
        const next = await pieces.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
}
