/** `POST /token-exchange`: a school portal's signed assertion for an Ayah session (service.ts). */
import { createRoute } from '@hono/zod-openapi';

import type { Deps } from '../../deps';
import type { AuthEnv } from '../../http/auth';
import { body, createRouter, errorResponses, json, PUBLIC } from '../../http/openapi';
import { clientAddress } from '../../http/security';
import { AuthResponse, signedIn, TokenExchangeBody } from '../schemas';
import type { SessionService } from '../sessions';
import type { ClassJoiner } from './service';
import { createPortalSignIn, MAX_ASSERTION_LIFETIME_SEC } from './service';

export function portalRoutes(deps: Deps, sessions: SessionService, classes: ClassJoiner) {
  const app = createRouter<AuthEnv>();
  const portal = createPortalSignIn(deps, sessions, classes);
  app.openapi(
    createRoute({
      method: 'post',
      path: '/token-exchange',
      operationId: 'postAuthTokenExchange',
      security: PUBLIC,
      summary: "Sign a portal's student in with the portal's signed assertion",
      description:
        'Shaped after RFC 8693. The assertion is a JWT from an issuer of `AYAH_TRUSTED_ISSUERS`, ' +
        `signed with RS256, ES256 or EdDSA, naming this server's audience, with \`sub\`, \`jti\`, ` +
        `\`iat\` and \`exp\` (at most ${MAX_ASSERTION_LIFETIME_SEC} s apart), used once. The student ` +
        'is found or created by issuer + subject (never by email); `name` and `email` are optional ' +
        'claims. `class_id` (with `class_name` and `roles`: learner, instructor or administrator, or LTI ' +
        'role URIs) places the user in that class with that role. A wrong issuer, audience, signature or algorithm, an expired or replayed assertion, ' +
        'a missing claim or a server without trusted issuers → 401.',
      request: { body: body(TokenExchangeBody) },
      responses: {
        200: json(AuthResponse, 'Signed in'),
        ...errorResponses(401, 415, 422, 429),
      },
    }),
    async (c) => {
      const input = c.req.valid('json');
      return c.json(
        signedIn(
          await portal.exchange(
            input.subject_token,
            input.subject_token_type,
            clientAddress(c, deps.config.trustProxy),
          ),
        ),
        200,
      );
    },
  );

  return app;
}
