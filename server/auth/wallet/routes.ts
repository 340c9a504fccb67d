/** `POST|GET /web3/nonce` and `POST /web3/authenticate`: Sign-In with Ethereum (EIP-4361). */
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';

import type { Deps } from '../../deps';
import type { AuthEnv } from '../../http/auth';
import { body, createRouter, errorResponses, json, PUBLIC } from '../../http/openapi';
import { enforce } from '../../http/rate-limit';
import { clientAddress } from '../../http/security';
import {
  AuthResponse,
  signedIn,
  Web3AuthenticateBody,
  Web3NonceBody,
  Web3NonceQuery,
  Web3NonceResponse,
} from '../schemas';
import type { SessionService } from '../sessions';
import { TOO_MANY_REQUESTS } from '../throttle';
import { createWalletSignIn } from './service';

export function walletRoutes(deps: Deps, sessions: SessionService) {
  const app = createRouter<AuthEnv>();
  const wallet = createWalletSignIn(deps, sessions);
  // Per client address, before the body is parsed or a signature checked (429 with Retry-After).
  const limited: MiddlewareHandler = async (c, next) => {
    await enforce(
      deps.db,
      `wallet:address:${clientAddress(c, deps.config.trustProxy)}`,
      deps.config.limits.walletPerAddress,
      deps.now(),
      TOO_MANY_REQUESTS,
    );
    await next();
  };
  const nonce = {
    path: '/web3/nonce',
    security: PUBLIC,
    middleware: limited,
    summary: 'The Sign-In with Ethereum message for a wallet to sign',
    description:
      'An EIP-4361 message naming this site, the chain and a nonce that works once, for 10 minutes.',
  };

  app.openapi(
    createRoute({
      method: 'post',
      ...nonce,
      request: { body: body(Web3NonceBody) },
      responses: {
        200: json(Web3NonceResponse, 'The message to sign'),
        ...errorResponses(415, 422, 429),
      },
    }),
    async (c) => c.json({ message: await wallet.issue(c.req.valid('json').wallet_address) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      ...nonce,
      request: { query: Web3NonceQuery },
      responses: {
        200: json(Web3NonceResponse, 'The message to sign'),
        ...errorResponses(422, 429),
      },
    }),
    async (c) => c.json({ message: await wallet.issue(c.req.valid('query').wallet_address) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/web3/authenticate',
      security: PUBLIC,
      middleware: limited,
      summary: 'Sign in with a signed Sign-In with Ethereum message',
      description:
        'The first sign-in of a wallet creates its account (no email, no password). A bad signature, ' +
        "another signer's, a reused or expired nonce, or a message for another site or chain → 401.",
      request: { body: body(Web3AuthenticateBody) },
      responses: {
        200: json(AuthResponse, 'Signed in'),
        ...errorResponses(401, 415, 422, 429),
      },
    }),
    async (c) =>
      c.json(
        signedIn(
          await wallet.authenticate(c.req.valid('json'), clientAddress(c, deps.config.trustProxy)),
        ),
        200,
      ),
  );

  return app;
}
