/** `GET /api/v1/auth/providers`: which sign-in ways this server offers, so the app never links to a 503. */
import { createRoute, z } from '@hono/zod-openapi';

import type { Deps } from '../deps';
import type { AuthEnv } from '../http/auth';
import { createRouter, json } from '../http/openapi';

export const ProvidersResponse = z
  .object({
    email: z.boolean(),
    google: z.boolean().openapi({ description: 'False when Google sign-in is not configured' }),
    wallet: z.boolean(),
  })
  .openapi('AuthProviders');

export function providersRoute(deps: Deps) {
  const app = createRouter<AuthEnv>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/providers',
      summary: 'The sign-in ways this server offers',
      responses: {
        200: json(ProvidersResponse, 'Email and wallet always; Google when configured'),
      },
    }),
    (c) =>
      c.json(
        { email: true as const, google: deps.config.google !== null, wallet: true as const },
        200,
      ),
  );

  return app;
}
