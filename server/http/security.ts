/** Response headers every answer carries, CORS for the listed origins, and the client's address. */
import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { getConnInfo } from '@hono/node-server/conninfo';

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

export function securityHeaders(options: { https: boolean }): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    const isApi = c.req.path.startsWith('/api/');
    h.set('Referrer-Policy', 'no-referrer');
    h.set('X-Content-Type-Options', 'nosniff');
    h.set('X-Frame-Options', 'DENY');
    h.set('Cross-Origin-Opener-Policy', 'same-origin');
    h.set('Content-Security-Policy', isApi ? API_CSP : APP_CSP);
    // An API answer is never cached, unless its route said otherwise (avatars, named by their hash).
    if (isApi && !h.has('Cache-Control')) h.set('Cache-Control', 'no-store');
    if (options.https) h.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}

/**
 * CORS for the app's own origin and AYAH_ALLOWED_ORIGINS only; never with credentials. Preflights
 * (OPTIONS) go through Hono's `cors`; every other request gets the same headers set here on the
 * answer once it exists. (Hono's `cors` touches `c.res` before the route answers and appends `Vary`
 * through `c.header` after it: each makes the Node adapter rebuild the answer as a stream, which cost
 * more than the rest of a GET /auth/me.)
 */
export function corsPolicy(publicUrl: string, allowed: readonly string[]): MiddlewareHandler {
  const origins = new Set([new URL(publicUrl).origin, ...allowed]);
  const exposeHeaders = ['Retry-After'];
  const preflight = cors({
    origin: (origin) => (origins.has(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'X-Timezone'],
    exposeHeaders,
    credentials: false,
    maxAge: 600,
  });
  const expose = exposeHeaders.join(',');
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    const origin = c.req.header('origin') ?? '';
    await next();
    const h = c.res.headers;
    if (origins.has(origin)) h.set('Access-Control-Allow-Origin', origin);
    h.set('Access-Control-Expose-Headers', expose);
    h.append('Vary', 'Origin');
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
