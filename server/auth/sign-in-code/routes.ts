/** `POST /sign-in-code`: a redirect's one-time code for tokens (service.ts). */
import { createRoute } from '@hono/zod-openapi';

import type { AuthEnv } from '../../http/auth';
import { body, createRouter, errorResponses, json, PUBLIC } from '../../http/openapi';
import { AuthResponse, signedIn, SignInCodeBody } from '../schemas';
import type { SignInCodes } from './service';

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
