/**
 * One-time sign-in codes: how a sign-in that ends in a browser redirect (Google's callback; later an
 * LTI launch) hands over a session without ever putting a token in a URL. The redirect carries a code;
 * the page posts it to `POST /auth/sign-in-code` with the one-time value its browser kept when it
 * started the sign-in (sessionStorage), and gets the usual access and refresh tokens.
 *
 * A code is one of server/db/one-time-codes.ts (256 random bits, stored only as SHA-256, used once),
 * living a minute. It is bound to the SHA-256 of the browser's one-time value: a code sent to someone else in a
 * link (an attacker's own sign-in, stopped at the redirect) is refused in their browser, which never
 * kept that value. A wrong value does not use the code up.
 */
import { eq } from 'drizzle-orm';

import type { Queryable } from '../../db';
import { transaction } from '../../db';
import { oneTimeCodes } from '../../db/one-time-codes';
import { signInCodes } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../http/errors';
import type { SignedIn } from '../sessions';
import { hashToken } from '../tokens';

export const SIGN_IN_CODE_TTL_MS = 60_000;

export const SIGN_IN_CODE_MESSAGES = {
  invalid:
    'This sign-in link is invalid, expired or was opened in another browser. Please sign in again.',
} as const;

/** Starts a session for a user (the auth service's `startSession`). */
type StartSession = (q: Queryable, userId: string) => Promise<SignedIn>;

export function createSignInCodes(
  { db, now }: Pick<Deps, 'db' | 'now'>,
  startSession: StartSession,
) {
  const codes = oneTimeCodes(signInCodes, now);
  return {
    /**
     * A code for `userId`, bound to `bindingHash` (`bindingOf` the browser's one-time value, kept by
     * the caller since the sign-in started). Runs in the caller's transaction when given one.
     */
    async issueSignInCode(userId: string, bindingHash: string, q: Queryable = db): Promise<string> {
      return codes.issue(q, { userId, bindingHash, createdAt: now() }, SIGN_IN_CODE_TTL_MS);
    },

    /** Uses up `code` presented with `binding` and signs its user in; 400 when it cannot. */
    async redeemSignInCode(code: string, binding: string): Promise<SignedIn> {
      const signed = await transaction(db, async (tx) => {
        const row = await codes.take(tx, code, eq(signInCodes.bindingHash, bindingOf(binding)));
        return row ? startSession(tx, row.userId) : null;
      });
      if (!signed) throw new AppError(400, SIGN_IN_CODE_MESSAGES.invalid);
      return signed;
    },
  };
}

/** What a caller keeps of the browser's one-time value until it issues the code. */
export const bindingOf = (browserValue: string) => hashToken(browserValue);

export type SignInCodes = ReturnType<typeof createSignInCodes>;
