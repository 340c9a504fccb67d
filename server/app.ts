/**
 * The reference API as a Hono app: pure (no listening, no environment), so tests build it with their
 * own database, mailer and clock. `main.ts` wires it to the real ones.
 *
 * The composition root: the one place that builds every domain's service, hands each the ports it
 * asks for (the points ledger, the tutor's chat, goals and memory) and mounts every domain's router,
 * each an OpenAPIHono sub-app mounted with `app.route(...)`. No domain builds or imports another.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

import { AVATAR_UPLOAD_PATH } from './auth/avatars/routes';
import { AVATAR_MAX_REQUEST_BYTES, AVATAR_MESSAGES } from './auth/avatars/service';
import { createCredentialService } from './auth/credentials';
import { createOneTimeTokens } from './auth/one-time-tokens';
import { authRoutes } from './auth/routes';
import { signedIn } from './auth/schemas';
import { createProfileService } from './auth/service';
import { AUTH_CHANGES_CHANNEL, createSessionCache } from './auth/session-cache';
import { createSessionService } from './auth/sessions';
import { chatRoutes } from './chat/routes';
import { createChatService } from './chat/service';
import { createAlertMail, safetyAlertsPort } from './classes/alert-mail';
import { createAlertService } from './classes/alerts';
import { alertRoutes, classRoutes } from './classes/routes';
import { createClassService } from './classes/service';
import type { AppDeps, Deps } from './deps';
import { goalRoutes } from './goals/routes';
import { createGoalsService } from './goals/service';
import { healthRoutes } from './health/routes';
import { requireAuth } from './http/auth';
import { errorResponse } from './http/errors';
import { BEARER, createRouter, nameOperations } from './http/openapi';
import { APP_CSP, corsPolicy, securityHeaders } from './http/security';
import { legalRoutes } from './legal/routes';
import { createLlmClient } from './llm/model';
import { launchedPageFraming, ltiRoutes } from './lti/routes';
import { createLtiService } from './lti/service';
import { memoryRoutes } from './memory/routes';
import { createMemoryService } from './memory/service';
import { createPointsLedger } from './points/ledger';
import { pointsRoutes } from './points/routes';
import { createPointsService } from './points/service';
import { createTutor } from './tutor/service';

export const API_PREFIX = '/api/v1';

/**
 * GET and HEAD requests carry no body (the Node adapter gives them none): the body middlewares below
 * skip them without asking, since asking (`c.req.raw.body`) builds a whole fetch Request per call.
 * Nor do they ask of a request with a body, unless they must (issue 26): once asked, the Node
 * adapter reads the body through that Request and a web stream of the socket instead of straight
 * off the socket (with the Request, its abort controller and the stream, ~0.5 ms of every send's CPU).
 */
const hasNoBody = (method: string) => method === 'GET' || method === 'HEAD';
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** FastAPI treats an empty body as no body; so do we (a bare `Content-Type: application/json` is fine). */
const emptyBodyIsNoBody: MiddlewareHandler = async (c, next) => {
  if (hasNoBody(c.req.method)) return next();
  if (c.req.header('content-length') === '0' && c.req.raw.body) {
    const headers = new Headers(c.req.raw.headers);
    headers.delete('content-type');
    headers.delete('content-length');
    c.req.raw = new Request(c.req.raw.url, {
      method: c.req.method,
      headers,
      signal: c.req.raw.signal,
    });
  }
  await next();
};

function routePattern(route: string): RegExp {
  const source = route
    .split('/')
    .map((segment) =>
      segment === '*'
        ? '.*'
        : segment.startsWith(':')
          ? '[^/]+'
          : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}

function placeholderPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ayah</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f2937">
<h1>Ayah, your AI learning coach</h1>
<p>The API is running, but the app has not been built yet. Run <code>npm start</code> (it builds the app
when <code>app/</code> is ready) or build it into <code>dist-app/</code>.</p>
<ul><li><a href="${API_PREFIX}/health">${API_PREFIX}/health</a></li>
<li><a href="${API_PREFIX}/openapi.json">${API_PREFIX}/openapi.json</a></li></ul>
</body></html>`;
}

export function createApp(appDeps: AppDeps) {
  const logger = appDeps.logger ?? console;
  const deps: Deps = {
    db: appDeps.database.db,
    config: appDeps.config,
    mailer: appDeps.mailer,
    logger,
    now: appDeps.now ?? (() => new Date()),
  };
  const { config } = deps;
  const app = createRouter();

  app.onError((error, c) => errorResponse(error, c, logger));
  app.use('*', securityHeaders({ https: config.publicUrl.startsWith('https:') }));
  app.use(
    '/api/*',
    corsPolicy(config.publicUrl, config.allowedOrigins, {
      logger,
      now: () => deps.now().getTime(),
    }),
  );
  app.use('/api/*', emptyBodyIsNoBody);
  // An answer given before the request body was read (a 401 from the auth middleware, say) leaves
  // the rest of the body on the socket, so the connection cannot be reused: say so, as the 413 does,
  // or the client's next request on it fails.
  app.use('/api/*', async (c, next) => {
    await next();
    if (hasNoBody(c.req.method)) return;
    if (!c.req.raw.bodyUsed && c.req.raw.body) c.res.headers.set('Connection', 'close');
  });
  const limit = (maxSize: number, detail = 'Request body too large'): MiddlewareHandler => {
    // The rest of the body is never read, so the connection cannot be reused: say so.
    const refuse = (c: Context) => c.json({ detail }, 413, { Connection: 'close' });
    const counted = bodyLimit({ maxSize, onError: refuse });
    // A body whose length the headers give is judged by them, as bodyLimit itself does, but without
    // asking for the body (see `hasNoBody`); any other (chunked) body is counted as it is read.
    return (c, next) => {
      const length = c.req.header('content-length');
      if (length === undefined || c.req.header('transfer-encoding') !== undefined)
        return counted(c, next);
      return parseInt(length || '0', 10) > maxSize ? Promise.resolve(refuse(c)) : next();
    };
  };
  const bodyLimits = new Map([
    [
      `${API_PREFIX}/auth${AVATAR_UPLOAD_PATH}`,
      limit(AVATAR_MAX_REQUEST_BYTES, AVATAR_MESSAGES.tooLarge),
    ],
  ]);
  const defaultLimit = limit(config.maxBodyBytes);
  app.use('/api/*', (c, next) =>
    hasNoBody(c.req.method) ? next() : (bodyLimits.get(c.req.path) ?? defaultLimit)(c, next),
  );

  // Sessions found live, kept until the database announces a change to them (session-cache.ts).
  const { notifications } = appDeps.database;
  const sessions = createSessionCache({ now: deps.now });
  notifications.listen(AUTH_CHANGES_CHANNEL, sessions.listener);
  // A write's answer waits until this server has heard every change committed before it (a round
  // trip on PostgreSQL, nothing on PGlite): whoever gets the answer to a sign-out, a password change
  // or a deleted account, and asks again, is refused by this server at once. Google's callback is a
  // GET that signs in (it writes the user's last sign-in and maybe the avatar). A chat send writes
  // no user and no session (its user lock is `for no key update`, which announces nothing): its
  // answer, the tutor's first words above all, does not wait for that round trip (issue 26).
  const writesOnGet = new Set([`${API_PREFIX}/auth/google/callback`]);
  const announceNothing = new Set([`${API_PREFIX}/chat/send`, `${API_PREFIX}/chat/send/stream`]);
  app.use('/api/*', async (c, next) => {
    await next();
    const { method, path } = c.req;
    if ((WRITES.has(method) && !announceNothing.has(path)) || writesOnGet.has(path))
      await notifications.caughtUp();
  });

  // Every domain's service, and the ports they ask of each other.
  const ledger = createPointsLedger();
  const signIns = createSessionService(deps, sessions);
  const authServices = {
    sessions: signIns,
    credentials: createCredentialService(deps, signIns, createOneTimeTokens(deps)),
    profile: createProfileService(deps, ledger),
  };
  const auth = requireAuth(signIns);
  const llm = createLlmClient(config.llm);
  if (!llm.stream)
    logger.info(
      '[chat] no AI model configured (AYAH_LLM_BASE_URL, AYAH_LLM_MODEL): the offline coach answers',
    );
  const goals = createGoalsService(deps, ledger);
  const memory = createMemoryService(deps, llm);
  const chat = createChatService(deps, ledger);
  // Classes and safety alerts (issue 24): the dashboard reads the goals; the tutor raises alerts
  // through the alert port, and the portal sign-in places users through `joinClass`.
  const classes = createClassService(deps, goals);
  const alerts = createAlertService(deps);
  const alertMail = createAlertMail(deps);
  const tutor = createTutor(deps, {
    chat,
    goals,
    memory,
    llm,
    alerts: safetyAlertsPort(alerts, alertMail, logger),
  });
  const points = createPointsService(deps);
  // LTI 1.3: sessions from the auth domain, the week's goal progress from the goals domain.
  const lti = createLtiService({
    ...deps,
    // Every launch places its user in the course's class (issue 24).
    classes,
    sessions: {
      startSession: async (q, userId) => signedIn(await signIns.startSession(q, userId)),
    },
    goals: {
      async weekProgress(userId) {
        const week = await goals.list(userId, 'current');
        const total = week.reduce((sum, goal) => sum + goal.total_progress, 0);
        return {
          goals: week.length,
          average: week.length ? total / week.length : 0,
          complete: week.length > 0 && week.every((goal) => goal.total_progress >= 100),
        };
      },
    },
  });
  const onGoalProgress = (userId: string) =>
    void lti.grades.onGoalProgress(userId).catch((error) => logger.error('[lti] grades', error));
  // Scores a crash or restart left waiting go out now (and their retries after).
  if (config.lti.platforms.length > 0 || config.lti.dynamicRegistration) void lti.grades.drain();
  // The app's pages a launch opened may be framed by their platform only.
  app.use('*', launchedPageFraming(lti.platforms, APP_CSP));

  app.route(
    API_PREFIX,
    healthRoutes(appDeps.database, config.llm.baseUrl && config.llm.model ? 'model' : 'offline'),
  );
  app.route(
    `${API_PREFIX}/auth`,
    authRoutes(
      deps,
      auth,
      authServices,
      { chat, goals, points, memory, classes },
      classes,
      API_PREFIX,
    ),
  );
  app.route(API_PREFIX, legalRoutes(deps));
  app.route(`${API_PREFIX}/chat`, chatRoutes(deps, auth, chat, tutor));
  app.route(`${API_PREFIX}/vector`, memoryRoutes(auth, memory));
  app.route(`${API_PREFIX}/goal`, goalRoutes(auth, goals, onGoalProgress));
  app.route(`${API_PREFIX}/web3-tokens`, pointsRoutes(auth, points));
  app.route(`${API_PREFIX}/classes`, classRoutes(auth, classes, alerts));
  app.route(`${API_PREFIX}/alerts`, alertRoutes(auth, alerts));
  app.route(
    `${API_PREFIX}/lti`,
    ltiRoutes(lti, {
      lti: config.lti,
      publicUrl: config.publicUrl,
      trustProxy: config.trustProxy,
    }),
  );

  app.openAPIRegistry.registerComponent('securitySchemes', 'Bearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  nameOperations(app);
  app.doc31(`${API_PREFIX}/openapi.json`, {
    openapi: '3.1.0',
    info: {
      title: 'Ayah API',
      version: '1',
      description: 'The reference server of the Ayah learning coach. Errors are FastAPI-shaped.',
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    servers: [{ url: config.publicUrl, description: 'This server' }],
    // Every call needs the bearer token unless its operation says `security: []`.
    security: BEARER,
  });

  // The built app beside the API: files as they are, every other page path to index.html (the SPA).
  const staticDir = appDeps.staticDir ?? null;
  const indexFile = staticDir ? path.join(staticDir, 'index.html') : null;
  if (staticDir) {
    const files = serveStatic({
      root: staticDir,
      // name.br / name.gz written at build time (scripts/compress-assets.mjs), chosen by Accept-Encoding.
      precompressed: true,
      onFound: (file, c) => {
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        c.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // Source maps (and their compressed copies) stay private: they would publish the sources.
    const sourceMap = /\.map(\.(br|gz))?$/i;
    app.use('*', async (c, next) =>
      c.req.path.startsWith('/api/') || sourceMap.test(c.req.path) ? next() : files(c, next),
    );
  }

  let routes: { method: string; pattern: RegExp }[] | undefined;
  function allowedMethods(pathname: string): string[] {
    routes ??= app.routes
      .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/'))
      .map((r) => ({ method: r.method, pattern: routePattern(r.path) }));
    const methods = new Set(routes.filter((r) => r.pattern.test(pathname)).map((r) => r.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods];
  }

  app.notFound((c: Context) => {
    const { method } = c.req;
    const pathname = c.req.path;
    const allowed = allowedMethods(pathname);
    if (allowed.length > 0) {
      c.header('Allow', allowed.join(', '));
      return c.json({ detail: 'Method Not Allowed' }, 405);
    }
    const isPage =
      (method === 'GET' || method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      pathname !== '/api' &&
      !/\.[a-z0-9]+$/i.test(pathname);
    if (!isPage) return c.json({ detail: 'Not Found' }, 404);
    c.header('Cache-Control', 'no-cache');
    if (indexFile && existsSync(indexFile)) return c.html(readFileSync(indexFile, 'utf8'));
    return c.html(placeholderPage());
  });

  // Background work the app started itself (the LTI score outbox's retries, the tutor's memory of a
  // streamed turn, the chat's search filing): whoever runs the app stops it before closing the
  // database (main.ts on shutdown, the test harness after a file). `settle` does now the work the
  // app leaves for a quiet spell (the search filing), for whoever needs it done: a test that reads
  // the search chunks, a bench before it measures its baseline.
  return Object.assign(app, {
    stop: async () => {
      await Promise.all([lti.grades.stop(), tutor.stop(), chat.stop()]);
    },
    settle: () => chat.settleSearch(),
  });
}
