/** Response headers every answer carries, CORS for the listed origins, and the client's address. */
import type { ServerResponse } from 'node:http';

import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { cors } from 'hono/cors';

import type { Logger } from './errors';

// The app's pages: its own scripts only; inline styles for KaTeX and React. Images: the app's own
// (uploaded avatars are served under /api/v1), previews (blob:, data:) and Google profile pictures;
// never any https host, which would let an injected reply send data out in an image's address.
export const GOOGLE_AVATAR_HOSTS = 'https://*.googleusercontent.com';
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' data: blob: ${GOOGLE_AVATAR_HOSTS}`,
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

// API answers are data, never documents.
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

type HeaderList = readonly (readonly [string, string])[];

/**
 * Headers every answer of a kind carries, an answer's own header of the same name winning (an
 * avatar's Cache-Control). Under the Node adapter they go on the Node response before the answer
 * exists, and Node merges them into the head it writes: editing the answer's `Headers` afterwards
 * instead makes the adapter build and sort a `Headers` for every answer, which cost a third of a
 * GET /auth/me. Without a Node response (`app.request()`), they are added to the answer.
 */
async function withStandingHeaders(c: Context, headers: HeaderList, next: Next) {
  const outgoing = (c.env as { outgoing?: Partial<ServerResponse> } | undefined)?.outgoing;
  if (outgoing?.setHeader && !outgoing.headersSent) {
    for (const [name, value] of headers) outgoing.setHeader(name, value);
    return next();
  }
  await next();
  const h = c.res.headers;
  for (const [name, value] of headers) if (!h.has(name)) h.set(name, value);
}

export function securityHeaders(options: { https: boolean }): MiddlewareHandler {
  const every: HeaderList = [
    ['Referrer-Policy', 'no-referrer'],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'DENY'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ...(options.https
      ? [['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'] as const]
      : []),
  ];
  const pages: HeaderList = [...every, ['Content-Security-Policy', APP_CSP]];
  // An API answer is never cached, unless its route said otherwise (avatars, named by their hash).
  const api: HeaderList = [
    ...every,
    ['Content-Security-Policy', API_CSP],
    ['Cache-Control', 'no-store'],
  ];
  return (c, next) => withStandingHeaders(c, c.req.path.startsWith('/api/') ? api : pages, next);
}

/**
 * CORS for the app's own origin and AYAH_ALLOWED_ORIGINS only; never with credentials. Preflights
 * (OPTIONS) go through Hono's `cors`; every other request gets the same headers as standing headers
 * (above). (Hono's `cors` touches `c.res` before the route answers and appends `Vary` through
 * `c.header` after it: each makes the Node adapter rebuild the answer as a stream, which cost more
 * than the rest of a GET /auth/me.) No API route sets `Vary` of its own; one that did would replace
 * `Origin` here.
 */
export function corsPolicy(
  publicUrl: string,
  allowed: readonly string[],
  { logger, now = Date.now }: { logger?: Pick<Logger, 'warn'>; now?: () => number } = {},
): MiddlewareHandler {
  const origins = new Set([new URL(publicUrl).origin, ...allowed]);
  const warnStranger = logger ? strangerWarning(logger, [...origins], now) : () => {};
  const exposeHeaders = ['Retry-After'];
  const preflight = cors({
    origin: (origin) => (origins.has(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'X-Timezone'],
    exposeHeaders,
    credentials: false,
    maxAge: 600,
  });
  const expose = ['Access-Control-Expose-Headers', exposeHeaders.join(',')] as const;
  const vary = ['Vary', 'Origin'] as const;
  const stranger: HeaderList = [expose, vary];
  return (c, next) => {
    const origin = c.req.header('origin') ?? '';
    if (c.req.method === 'OPTIONS') {
      if (origin && !origins.has(origin)) warnStranger(origin);
      return preflight(c, next);
    }
    const headers = origins.has(origin)
      ? [['Access-Control-Allow-Origin', origin] as const, expose, vary]
      : stranger;
    return withStandingHeaders(c, headers, next);
  };
}

/** Warnings about one origin at most this often, for at most this many origins at a time. */
const STRANGER_WARNING_MS = 10 * 60_000;
const STRANGER_ORIGINS_KEPT = 1000;

/**
 * A portal whose origin is missing from AYAH_ALLOWED_ORIGINS sees its browser refuse every call,
 * while the server answered the preflight 204: one warning per unknown origin (again after ten
 * minutes) tells the operator why, without letting a flood of made-up origins flood the log.
 */
function strangerWarning(logger: Pick<Logger, 'warn'>, allowed: string[], now: () => number) {
  const lastWarned = new Map<string, number>();
  return (origin: string) => {
    const at = now();
    const last = lastWarned.get(origin);
    if (last !== undefined && at - last < STRANGER_WARNING_MS) return;
    lastWarned.delete(origin);
    if (lastWarned.size >= STRANGER_ORIGINS_KEPT) {
      const oldest = lastWarned.keys().next().value;
      if (oldest !== undefined) lastWarned.delete(oldest);
    }
    lastWarned.set(origin, at);
    logger.warn(
      `CORS: refused a browser call from ${JSON.stringify(origin.slice(0, 200))}: that origin is not ` +
        `in AYAH_ALLOWED_ORIGINS (allowed: ${allowed.join(', ')}). Add it there if it is your portal.`,
    );
  };
}

/** The caller's address: the socket's, or the last X-Forwarded-For hop behind a trusted proxy. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = (c.req.header('x-forwarded-for') ?? '').split(',').map((h) => h.trim());
    const last = hops.filter(Boolean).at(-1);
    if (last) return last;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // app.request() in tests has no socket
  }
}
