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
import { createRoute, z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';

import type { Queryable } from '../db';
import { transaction } from '../db';
import { oneTimeCodes } from '../db/one-time-codes';
import { signInCodes } from '../db/schema';
import type { Deps } from '../deps';
import type { AuthEnv } from '../http/auth';
import { AppError } from '../http/errors';
import { body, createRouter, errorResponses, json, PUBLIC } from '../http/openapi';
import { signedIn } from './route-helpers';
import { AuthResponse } from './schemas';
import type { SignedIn } from './sessions';
import { hashToken } from './tokens';

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

const SignInCodeBody = z
  .strictObject({
    code: z.string().min(1).max(256),
    state: z.string().min(1).max(256),
  })
  .openapi('SignInCodeRequest');

/** `POST /sign-in-code`, mounted on the auth router. */
export function signInCodeRoutes(codes: SignInCodes) {
  const app = createRouter<AuthEnv>();
  app.openapi(
    createRoute({
      method: 'post',
      path: '/sign-in-code',
      security: PUBLIC,
      summary: 'Exchange a one-time sign-in code for tokens',
      description:
        'The code a sign-in redirect carried (`/oauth-callback?code=…`), with the one-time `state` the ' +
        'browser kept when it started the sign-in. Single use, valid for a minute.',
      request: { body: body(SignInCodeBody) },
      responses: {
        200: json(AuthResponse, 'Signed in'),
        ...errorResponses(400, 415, 422),
      },
    }),
    async (c) => {
      const { code, state } = c.req.valid('json');
      return c.json(signedIn(await codes.redeemSignInCode(code, state)), 200);
    },
  );
  return app;
}
