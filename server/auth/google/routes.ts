/**
 * `GET /google/login` and `GET /google/callback`: browser navigations, not fetches. Both answer with a
 * redirect; only an unconfigured server answers 503 `{detail}`. The callback's redirect carries a
 * one-time code bound to the browser's one-time value (`client_state` at login), never a token
 * (../sign-in-code/).
 */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

import type { Deps } from '../../deps';
import type { AuthEnv } from '../../http/auth';
import { AppError } from '../../http/errors';
import { createRouter, errorResponses, PUBLIC } from '../../http/openapi';
import { clientAddress } from '../../http/security';
import { GoogleCallbackQuery, GoogleLoginQuery } from '../schemas';
import type { SignInCodes } from '../sign-in-code/service';
import {
  callbackUrl,
  createGoogleSignIn,
  GOOGLE_STATE_TTL_SEC,
  GoogleSignInError,
} from './service';

/**
 * The state is bound to the browser that started the sign-in (against login CSRF: an attacker's own
 * callback URL, sent to a victim, would otherwise sign the victim into the attacker's account). Lax,
 * so that it comes along on the top-level GET from Google; HttpOnly; only on these two paths.
 */
export const GOOGLE_STATE_COOKIE = 'ayah_google_state';
const COOKIE_PATH = '/api/v1/auth/google';

function stateCookie(c: Context, publicUrl: string, state: string | null) {
  const options = {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'Lax',
    secure: publicUrl.startsWith('https:'),
  } as const;
  if (state === null) deleteCookie(c, GOOGLE_STATE_COOKIE, options);
  else setCookie(c, GOOGLE_STATE_COOKIE, state, { ...options, maxAge: GOOGLE_STATE_TTL_SEC });
}

const redirect = (description: string) => ({
  description,
  headers: { Location: { schema: { type: 'string' as const } } },
});

export function googleRoutes(deps: Deps, codes: SignInCodes) {
  const app = createRouter<AuthEnv>();
  const google = createGoogleSignIn(deps);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/google/login',
      security: PUBLIC,
      summary: 'Start Google sign-in',
      description:
        "A redirect to Google's consent page (OpenID Connect with state and PKCE). `client_state` is a " +
        'one-time value the page keeps in sessionStorage: the code the callback issues is bound to it.',
      request: { query: GoogleLoginQuery },
      responses: {
        302: redirect("To Google's consent page (and sets the state's cookie)"),
        ...errorResponses(422, 503),
      },
    }),
    async (c) => {
      const url = await google.authorizationUrl(c.req.valid('query').client_state);
      stateCookie(c, deps.config.publicUrl, url.searchParams.get('state'));
      return c.redirect(url.toString(), 302);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/google/callback',
      security: PUBLIC,
      summary: 'Finish Google sign-in (where Google sends the browser back)',
      description:
        'Redirects to the app: `/oauth-callback?code=…` (a one-time code for POST /auth/sign-in-code), ' +
        'or `/oauth-callback?error=…`. Never a token.',
      request: { query: GoogleCallbackQuery },
      responses: {
        302: redirect('To the app'),
        ...errorResponses(422, 503),
      },
    }),
    async (c) => {
      const { publicUrl } = deps.config;
      const browserState = getCookie(c, GOOGLE_STATE_COOKIE) ?? null;
      if (browserState !== null) stateCookie(c, publicUrl, null);
      try {
        const { userId, bindingHash } = await google.complete(
          c.req.valid('query'),
          browserState,
          clientAddress(c, deps.config.trustProxy),
        );
        const code = await codes.issueSignInCode(userId, bindingHash);
        return c.redirect(callbackUrl(publicUrl, { code }), 302);
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

  return app;
}
