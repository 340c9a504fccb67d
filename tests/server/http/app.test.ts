import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { createApp } from '../../../server/app';
import type { Database } from '../../../server/db';
import { createMailer } from '../../../server/mailer';
import { describeServer, Harness, isFastApiError, useTestServer } from '../harness';

const h = useTestServer();

describeServer('the server', () => {
  it('answers health once the database answers', async () => {
    const reply = await h.get('/api/v1/health');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok', tutor: 'offline' });
  });

  it('says 503 on health when the database does not answer, without a stack', async () => {
    const down: Database = {
      ...h.database,
      ping: () => Promise.reject(new Error('connection refused')),
    };
    const app = createApp({ ...deps(down) });
    const reply = await app.request('/api/v1/health');
    expect(reply.status).toBe(503);
    expect(await reply.json()).toEqual({ detail: 'Database unavailable' });
  });

  it('answers 500 {"detail":"Internal Server Error"} for unexpected failures, and logs them', async () => {
    const { reply, logged } = await resetOnFailingDatabase(new Error('the database exploded'));
    expect(reply.status).toBe(500);
    expect(await reply.json()).toEqual({ detail: 'Internal Server Error' });
    expect(String(logged.error[0]?.[1])).toContain('the database exploded');
  });

  it('answers a NUL that reached the database unchecked 422, not 500, and warns of the route', async () => {
    const nul = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
    });
    const { reply, logged } = await resetOnFailingDatabase(
      new Error('Failed query', { cause: nul }),
    );
    expect(reply.status).toBe(422);
    expect(await reply.json()).toEqual({ detail: 'Null characters are not allowed' });
    expect(String(logged.warn[0]?.[0])).toContain('POST /api/v1/auth/password-reset');
  });

  it('publishes an OpenAPI 3.1 document of every auth route', async () => {
    const reply = await h.get('/api/v1/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toBe('3.1.0');
    const paths = Object.keys(reply.body.paths);
    for (const p of [
      '/api/v1/health',
      '/api/v1/auth/register',
      '/api/v1/auth/login',
      '/api/v1/auth/me',
      '/api/v1/auth/profile',
      '/api/v1/auth/onboarding/complete',
      '/api/v1/auth/verify-email',
      '/api/v1/auth/resend-verification',
      '/api/v1/auth/password-reset',
      '/api/v1/auth/password-reset/confirm',
      '/api/v1/auth/change-password',
      '/api/v1/auth/refresh',
    ]) {
      expect(paths).toContain(p);
    }
    const register = reply.body.paths['/api/v1/auth/register'].post;
    expect(Object.keys(register.responses)).toEqual(expect.arrayContaining(['201', '409', '422']));
    expect(reply.body.components.schemas.User.required).toEqual(
      expect.arrayContaining(['id', 'email', 'profile', 'last_login', 'tier']),
    );
    expect(reply.body.paths['/api/v1/auth/me'].get.security).toEqual([{ Bearer: [] }]);
  });

  it('answers unknown API routes 404 {"detail":"Not Found"}', async () => {
    for (const route of ['/api/v1/nope', '/api/v2/health', '/api/v1/auth/me/extra', '/api']) {
      const reply = await h.get(route);
      expect(reply.status, route).toBe(404);
      expect(reply.body).toEqual({ detail: 'Not Found' });
    }
    const post = await h.post('/not-an-api-path', {});
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ detail: 'Not Found' });
  });

  it('answers a wrong method 405 {"detail":"Method Not Allowed"} with Allow', async () => {
    const reply = await h.request('DELETE', '/api/v1/auth/login');
    expect(reply.status).toBe(405);
    expect(reply.body).toEqual({ detail: 'Method Not Allowed' });
    expect(reply.headers.get('allow')).toBe('POST');
    const get = await h.get('/api/v1/auth/register');
    expect(get.status).toBe(405);
    const put = await h.put('/api/v1/health', {});
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers malformed JSON 422 json_invalid, not 400', async () => {
    for (const raw of ['{bad', '{"email": "a@b.co",}', 'nul', '"unterminated', '{"a":1}}']) {
      const reply = await h.post('/api/v1/auth/login', undefined, {
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(reply.status, raw).toBe(422);
      expect(reply.body).toEqual({
        detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }],
      });
    }
  });

  it('answers a body that is not an object 422 on the body', async () => {
    for (const body of [[], 'text', 42, null, true]) {
      const reply = await h.post('/api/v1/auth/password-reset', body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(reply.body.detail[0]).toMatchObject({ loc: ['body'], type: 'model_attributes_type' });
    }
  });

  it('treats an empty body as no body: required fields are missing', async () => {
    const reply = await h.post('/api/v1/auth/password-reset', undefined, {
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.detail).toEqual([
      { loc: ['body', 'email'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('answers an unsupported content type 415 {detail}', async () => {
    const reply = await h.post('/api/v1/auth/password-reset', undefined, {
      raw: 'email=a@b.co',
      headers: { 'content-type': 'text/plain' },
    });
    expect(reply.status).toBe(415);
    expect(reply.body).toEqual({ detail: 'Unsupported Media Type' });
  });

  it('refuses bodies over 1 MB with 413 {detail}', async () => {
    const big = JSON.stringify({ email: 'a@b.co', padding: 'x'.repeat(1024 * 1024) });
    const reply = await h.post('/api/v1/auth/password-reset', undefined, {
      raw: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({ detail: 'Request body too large' });
    // Streamed without a length, too.
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const chunked = await fetch(`${h.url}/api/v1/auth/password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(isFastApiError(await chunked.json())).toBe(true);
  });

  it('closes the connection when it answers before reading the body, so the next request is not lost', async () => {
    // One keep-alive connection: a 401 with an unread body must not leave that body on the socket.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (route: string, body?: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const request = http.request(
          h.url + route,
          {
            agent,
            method: body ? 'POST' : 'GET',
            headers: body ? { 'content-type': 'application/json' } : {},
          },
          (response) => {
            response.resume();
            response.on('end', () =>
              resolve({ status: response.statusCode!, connection: response.headers.connection }),
            );
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    const big = JSON.stringify({ interests: ['math'], pad: 'x'.repeat(200_000) });
    const refused = await send('/api/v1/auth/onboarding/complete', big);
    expect(refused).toEqual({ status: 401, connection: 'close' });
    expect((await send('/api/v1/health')).status).toBe(200);
    agent.destroy();
  });

  it('sends the security headers on API answers and pages', async () => {
    const api = await h.get('/api/v1/health');
    expect(api.headers.get('referrer-policy')).toBe('no-referrer');
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    expect(api.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(api.headers.get('cache-control')).toBe('no-store');
    const page = await h.get('/assistant');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // Finding #10: images from the app, previews and Google profile pictures only, not any https host.
    const img = /img-src ([^;]*)/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
    expect(img?.split(' ')).toEqual([
      "'self'",
      'data:',
      'blob:',
      'https://*.googleusercontent.com',
    ]);
  });

  it('sends the same headers without a Node server (app.request), HSTS over https, a route’s own Cache-Control kept', async () => {
    const app = createApp({
      ...deps(h.database),
      config: { ...h.config, publicUrl: 'https://ayah.example.org' },
    });
    const api = await app.request('/api/v1/health', {
      headers: { origin: 'https://portal.example.org' },
    });
    expect(api.status).toBe(200);
    expect(Object.fromEntries(api.headers)).toMatchObject({
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'cache-control': 'no-store',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'access-control-allow-origin': 'https://portal.example.org',
      'access-control-expose-headers': 'Retry-After',
      vary: 'Origin',
    });
    // The terms page says it may be cached (no-cache); the standing no-store does not replace it.
    for (const reply of [
      await app.request('/api/v1/legal/terms'),
      await h.get('/api/v1/legal/terms'),
    ]) {
      expect(reply.headers.get('cache-control')).toBe('no-cache');
      expect(reply.headers.get('x-frame-options')).toBe('DENY');
    }
    expect((await h.get('/api/v1/health')).headers.get('strict-transport-security')).toBeNull();
  });

  it('allows CORS only for the app itself and the listed origins, never with credentials', async () => {
    const preflight = (origin: string) =>
      fetch(`${h.url}/api/v1/auth/login`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, authorization',
        },
      });
    const listed = await preflight('https://portal.example.org');
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://portal.example.org');
    expect(listed.headers.get('access-control-allow-credentials')).toBeNull();
    expect(listed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'authorization',
    );
    const own = await preflight('http://app.test');
    expect(own.headers.get('access-control-allow-origin')).toBe('http://app.test');
    const stranger = await preflight('https://evil.example.com');
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    const simple = await h.get('/api/v1/health', {
      headers: { origin: 'https://evil.example.com' },
    });
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
  });

  // Issue 25 item 10: a portal missing from AYAH_ALLOWED_ORIGINS sees only its browser refuse.
  it('warns once per unknown origin of a refused preflight, again only after ten minutes', async () => {
    const preflight = (origin: string) =>
      fetch(`${h.url}/api/v1/auth/me`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
    const warnings = (origin: string) =>
      h.logs.filter((l) => l.level === 'warn' && l.text.includes(`from "${origin}"`));
    const stranger = 'https://portal-typo.example.net';
    for (let i = 0; i < 5; i++) expect((await preflight(stranger)).status).toBe(204);
    expect(warnings(stranger)).toHaveLength(1);
    expect(warnings(stranger)[0]!.text).toContain('AYAH_ALLOWED_ORIGINS');
    expect(warnings(stranger)[0]!.text).toContain('https://portal.example.org');
    // Another unknown origin has its own warning; a listed one has none.
    await preflight('https://other.example.net');
    await preflight('https://portal.example.org');
    expect(warnings('https://other.example.net')).toHaveLength(1);
    expect(warnings('https://portal.example.org')).toHaveLength(0);
    h.advanceClock(11 * 60_000);
    try {
      await preflight(stranger);
      expect(warnings(stranger)).toHaveLength(2);
    } finally {
      h.resetClock();
    }
  });

  it('serves a placeholder page when the app is not built', async () => {
    const reply = await h.get('/');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/html');
    expect(reply.text).toContain('not been built');
  });
});

describeServer('with the app built', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-dist-'));
  const built = new Harness({ staticDir: dir });

  beforeAll(async () => {
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root">Ayah app</div>');
    writeFileSync(path.join(dir, 'assets', 'app-1234.js'), 'console.log("hi")');
    await built.start();
  });
  afterAll(async () => {
    await built.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves files, and index.html for every page route (SPA fallback)', async () => {
    const asset = await built.get('/assets/app-1234.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    for (const route of ['/', '/assistant', '/goal', '/reset-password?token=abc', '/a/b/c']) {
      const page = await built.get(route);
      expect(page.status, route).toBe(200);
      expect(page.text).toContain('Ayah app');
    }
  });

  it('keeps the API out of the fallback, and missing files 404', async () => {
    expect((await built.get('/api/v1/unknown')).body).toEqual({ detail: 'Not Found' });
    expect((await built.get('/assets/missing.js')).status).toBe(404);
    expect((await built.get('/../../etc/passwd')).text).not.toContain('root:');
  });
});

/** A password-reset request to an app whose every database call throws `failure`, and what it logged. */
async function resetOnFailingDatabase(failure: Error) {
  // Whatever the app reaches for on it (a method, or its session's: db/compiled.ts) fails.
  const explode: () => never = new Proxy(
    () => {
      throw failure;
    },
    { get: () => explode },
  );
  const failing = new Proxy(h.database.db, { get: () => explode });
  const logged = { warn: [] as unknown[][], error: [] as unknown[][] };
  const app = createApp({
    ...deps({ ...h.database, db: failing }),
    logger: {
      info: () => {},
      warn: (...args) => void logged.warn.push(args),
      error: (...args) => void logged.error.push(args),
    },
  });
  const reply = await app.request('/api/v1/auth/password-reset', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'someone@example.com' }),
  });
  return { reply, logged };
}

function deps(database: Database) {
  return {
    config: h.config,
    database,
    mailer: createMailer({
      smtpUrl: null,
      from: h.config.mailFrom,
      outboxDir: path.join(h.dataDir, 'outbox'),
      logger: h.logger,
    }),
    logger: h.logger,
  };
}
