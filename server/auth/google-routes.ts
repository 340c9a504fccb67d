/**
 * `GET /google/login` and `GET /google/callback`: browser navigations, not fetches. Both answer with a
 * redirect; only an unconfigured server answers 503 `{detail}`. Every page sends
 * `Referrer-Policy: no-referrer`, so the token in `/oauth-callback?access_token=…` goes nowhere else.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { AppError } from '../http/errors';
import { errorResponses, PUBLIC } from '../http/openapi';
import { GoogleSignInError, callbackUrl, createGoogleSignIn } from './google';
import type { AuthEnv } from './guard';
import { GoogleCallbackQuery } from './schemas';
import type { AuthService } from './service';

const redirect = (description: string) => ({
  description,
  headers: { Location: { schema: { type: 'string' as const } } },
});

export function googleRoutes(app: OpenAPIHono<AuthEnv>, deps: Deps, service: AuthService) {
  const google = createGoogleSignIn(deps, service);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/google/login',
      security: PUBLIC,
      summary: 'Start Google sign-in',
      description: "A redirect to Google's consent page (OpenID Connect with state and PKCE).",
      responses: {
        302: redirect("To Google's consent page"),
        ...errorResponses(503),
      },
    }),
    async (c) => c.redirect((await google.authorizationUrl()).toString(), 302),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/google/callback',
      security: PUBLIC,
      summary: 'Finish Google sign-in (where Google sends the browser back)',
      description:
        'Redirects to the app: `/oauth-callback?access_token=…&token_type=bearer&user_id=…&user_name=…' +
        '&user_email=…&user_avatar=…&refresh_token=…`, or `/oauth-callback?error=…`.',
      request: { query: GoogleCallbackQuery },
      responses: {
        302: redirect('To the app'),
        ...errorResponses(422, 503),
      },
    }),
    async (c) => {
      const { publicUrl } = deps.config;
      try {
        const signedIn = await google.complete(c.req.valid('query'));
        return c.redirect(callbackUrl(publicUrl, signedIn), 302);
      } catch (error) {
        if (error instanceof GoogleSignInError) {
          return c.redirect(callbackUrl(publicUrl, { error: error.reason }), 302);
        }
        if (error instanceof AppError) throw error;
        deps.logger.error('[google] sign-in failed:', error);
        return c.redirect(callbackUrl(publicUrl, { error: 'Google sign-in failed' }), 302);
      }
    },
  );
}
