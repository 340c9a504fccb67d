/** `GET /export` and `DELETE /account`: the routes of the account service (service.ts). */
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';

import type { Deps } from '../../deps';
import type { AuthEnv } from '../../http/auth';
import { BEARER, body, createRouter, errorResponses, json } from '../../http/openapi';
import { AccountExport, DeleteAccountBody, MessageResponse } from '../schemas';
import type { AccountParts } from './service';
import { ACCOUNT_MESSAGES, createAccountService } from './service';

/** Registers `GET /export` and `DELETE /account` on the auth router. */
export function accountRoutes(deps: Deps, auth: MiddlewareHandler<AuthEnv>, parts: AccountParts) {
  const app = createRouter<AuthEnv>();
  const account = createAccountService(deps, parts);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/export',
      summary: "Download the caller's whole account",
      description:
        'Profile, avatar, chats with their messages, goals with progress, the points ledger, ' +
        'conversions, learning memory, classes and the safety alerts about the caller, as one JSON document.',
      security: BEARER,
      middleware: [auth] as const,
      responses: {
        200: json(AccountExport, 'Everything the account holds'),
        ...errorResponses(401),
      },
    }),
    async (c) => {
      // Written as it is read (account.ts exportStream): chunked, no Content-Length. The body is the
      // documented AccountExport, which Hono's typed JSON answer cannot carry as a stream.
      const stream = account.exportStream(c.var.auth.user);
      return c.body(stream, 200, {
        'Content-Type': 'application/json',
        'Content-Disposition': 'attachment; filename="ayah-data.json"',
        'Cache-Control': 'no-store',
      }) as never;
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/account',
      summary: "Delete the caller's account and every row of it",
      description:
        'Confirmed by the email (email accounts), the display name within 10 minutes of a fresh ' +
        'Google sign-in (Google accounts; 403 after that) or a wallet ' +
        'signature over a fresh POST /web3/nonce message (wallet accounts). One transaction; every ' +
        'token of the account is 401 afterwards.',
      security: BEARER,
      middleware: [auth] as const,
      request: { body: body(DeleteAccountBody) },
      responses: {
        200: json(MessageResponse, 'Deleted'),
        ...errorResponses(400, 401, 403, 415, 422),
      },
    }),
    async (c) => {
      await account.delete(c.var.auth.user, c.var.auth.sessionId, c.req.valid('json'));
      return c.json({ message: ACCOUNT_MESSAGES.deleted }, 200);
    },
  );

  return app;
}
