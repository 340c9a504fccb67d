/**
 * `/api/v1/lti/*`: the tool's side of LTI 1.3 (service.ts). These are browser pages and form posts
 * from a platform, not the JSON API: a refusal is a plain page saying what went wrong (4xx, no
 * stack, nothing of the token echoed); only `POST /session` and `GET /jwks` answer JSON.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

import { AppError } from '../http/errors';
import { clientAddress } from '../http/security';
import { toolJwks } from './keys';
import {
  ACCOUNT_QUESTION,
  allowFraming,
  autoPostPage,
  errorPage,
  PAGE_SCRIPT,
  PAGE_SCRIPT_PATH,
  pickerPage,
  registeredPage,
  workingPage,
} from './pages';
import type { PlatformRegistry } from './platforms';
import { register } from './registration';
import { SessionBody } from './schemas';
import type { LtiService } from './service';
import { LTI_PREFIX, LtiRefusal, STATE_COOKIE_PREFIX } from './service';

const FIELD_MAX = 16_384;

/** A form post's or a query's fields, each a string of bounded length. */
async function fields(c: Context): Promise<Record<string, string | undefined>> {
  const out: Record<string, string | undefined> = {};
  const take = (name: string, value: unknown) => {
    if (typeof value === 'string' && value.length <= FIELD_MAX) out[name] = value;
  };
  for (const [name, value] of Object.entries(c.req.query())) take(name, value);
  if (c.req.method === 'POST') {
    const type = c.req.header('content-type') ?? '';
    if (
      type.startsWith('application/x-www-form-urlencoded') ||
      type.startsWith('multipart/form-data')
    ) {
      const body = await c.req.parseBody();
      for (const [name, value] of Object.entries(body)) take(name, value);
    }
  }
  return out;
}

function refused(c: Context, error: unknown) {
  if (!(error instanceof LtiRefusal)) throw error;
  return errorPage(c, error.message, {
    status: error.status,
    frameOrigins: error.platform?.frameOrigins ?? [],
  });
}

export interface LtiRoutesOptions {
  lti: { dynamicRegistration: boolean; keys: Parameters<typeof toolJwks>[0] };
  publicUrl: string;
  /** Whether X-Forwarded-For names the client (new accounts are limited per client address). */
  trustProxy: boolean;
}

export function ltiRoutes(service: LtiService, options: LtiRoutesOptions) {
  const app = new Hono();
  const jwks = toolJwks(options.lti.keys);

  app.get('/jwks', async (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(await jwks, 200);
  });

  app.get(PAGE_SCRIPT_PATH.slice(LTI_PREFIX.length), (c) => {
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'no-cache');
    return c.body(PAGE_SCRIPT, 200);
  });

  const login = async (c: Context) => {
    try {
      const result = await service.login(await fields(c));
      if (result.kind === 'redirect') {
        setCookie(c, STATE_COOKIE_PREFIX + result.state, result.cookie, {
          path: LTI_PREFIX,
          httpOnly: true,
          secure: true,
          sameSite: 'None',
          partitioned: true,
          maxAge: 600,
        });
        allowFraming(
          c,
          `default-src 'none'; frame-ancestors ${result.platform.frameOrigins.join(' ') || "'none'"}`,
        );
        return c.redirect(result.url, 302);
      }
      return workingPage(
        c,
        {
          mode: 'login',
          state: result.state,
          nonce: result.nonce,
          next: result.url,
          storage: { target: result.target, origin: result.origin },
        },
        { frameOrigins: result.platform.frameOrigins },
      );
    } catch (error) {
      return refused(c, error);
    }
  };
  app.get('/login', login);
  app.post('/login', login);

  app.post('/launch', async (c) => {
    try {
      const form = await fields(c);
      const result = await service.launch(
        form.id_token,
        form.state,
        (name) => getCookie(c, name),
        clientAddress(c, options.trustProxy),
      );
      if (form.state)
        setCookie(c, STATE_COOKIE_PREFIX + form.state, '', {
          path: LTI_PREFIX,
          httpOnly: true,
          secure: true,
          sameSite: 'None',
          partitioned: true,
          maxAge: 0,
        });
      const frame = { frameOrigins: result.platform.frameOrigins };
      if (result.kind === 'deep_link') return pickerPage(c, result.code, frame);
      return workingPage(
        c,
        {
          mode: 'launch',
          code: result.code,
          session: `${LTI_PREFIX}/session`,
          next: result.next,
          storage: result.storage,
          ask: ACCOUNT_QUESTION,
        },
        frame,
      );
    } catch (error) {
      return refused(c, error);
    }
  });

  app.post('/session', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new AppError(422, 'The body must be JSON: {code, state?, nonce?}');
    }
    const input = SessionBody.safeParse(body);
    if (!input.success) throw new AppError(422, 'The body must be JSON: {code, state?, nonce?}');
    try {
      return c.json(await service.session(input.data), 200);
    } catch (error) {
      if (error instanceof LtiRefusal) throw new AppError(error.status, error.message);
      throw error;
    }
  });

  app.post('/deep-link', async (c) => {
    try {
      const form = await fields(c);
      const { platform, returnUrl, jwt } = await service.deepLink(form.code ?? '', form.view);
      return autoPostPage(
        c,
        returnUrl,
        { JWT: jwt },
        {
          frameOrigins: platform.frameOrigins,
          formOrigins: [new URL(returnUrl).origin],
        },
      );
    } catch (error) {
      return refused(c, error);
    }
  });

  app.get('/register', async (c) => {
    try {
      const { issuer, frameOrigins } = await register(
        {
          openidConfiguration: c.req.query('openid_configuration'),
          registrationToken: c.req.query('registration_token'),
        },
        service.config,
        options.publicUrl,
        service.platforms,
      );
      return registeredPage(c, issuer, { frameOrigins });
    } catch (error) {
      return refused(c, error);
    }
  });

  return app;
}

/**
 * The app's pages opened by a launch (`?lti=<platform id>`, set by the launch's hand-off) may be
 * framed by that platform's origins only; every other page keeps `frame-ancestors 'none'`.
 */
export function launchedPageFraming(
  platforms: PlatformRegistry,
  appCsp: string,
): MiddlewareHandler {
  return async (c, next) => {
    const id =
      c.req.method === 'GET' && !c.req.path.startsWith('/api/') ? c.req.query('lti') : undefined;
    if (!id) return next();
    const platform = id.length <= 64 ? await platforms.byId(id) : null;
    await next();
    if (!platform || !platform.frameOrigins.length) return;
    if (!(c.res.headers.get('content-type') ?? '').startsWith('text/html')) return;
    const csp = appCsp.replace(
      "frame-ancestors 'none'",
      `frame-ancestors ${platform.frameOrigins.join(' ')}`,
    );
    allowFraming(c, csp);
    c.res.headers.set('Content-Security-Policy', csp);
    c.res.headers.delete('X-Frame-Options');
  };
}
