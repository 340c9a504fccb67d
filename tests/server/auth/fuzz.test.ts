/**
 * Property: whatever body, content type, query, path or token is thrown at an auth route, the server
 * never answers 5xx (but 503 from Google sign-in, which is not configured here), and every error is
 * FastAPI-shaped.
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';

import type { SignedInUser } from '../harness';
import { describeServer, isFastApiError, useTestServer } from '../harness';

const h = useTestServer();

const ROUTES: { method: 'GET' | 'POST' | 'PUT'; path: string; fields: string[] }[] = [
  {
    method: 'POST',
    path: '/register',
    fields: ['email', 'password', 'display_name', 'agreed_to_terms', 'agreed_to_privacy'],
  },
  { method: 'POST', path: '/login', fields: ['email', 'password', 'username'] },
  { method: 'GET', path: '/me', fields: [] },
  { method: 'PUT', path: '/profile', fields: ['display_name', 'bio'] },
  { method: 'POST', path: '/onboarding/complete', fields: [] },
  { method: 'POST', path: '/verify-email', fields: ['token'] },
  { method: 'POST', path: '/resend-verification', fields: ['email'] },
  { method: 'POST', path: '/password-reset', fields: ['email'] },
  { method: 'POST', path: '/password-reset/confirm', fields: ['token', 'new_password'] },
  { method: 'POST', path: '/change-password', fields: ['current_password', 'new_password'] },
  { method: 'POST', path: '/refresh', fields: ['refresh_token'] },
  { method: 'POST', path: '/profile/upload-avatar', fields: ['file'] },
  { method: 'GET', path: '/avatars/{user_id}/{etag}', fields: [] },
  { method: 'GET', path: '/google/login', fields: [] },
  { method: 'GET', path: '/google/callback', fields: ['code', 'state', 'error'] },
  { method: 'POST', path: '/web3/nonce', fields: ['wallet_address'] },
  { method: 'GET', path: '/web3/nonce', fields: ['wallet_address'] },
  {
    method: 'POST',
    path: '/web3/authenticate',
    fields: ['wallet_address', 'signature', 'message'],
  },
];

/** Google sign-in is not configured in this server: its routes rightly answer 503. */
const UNCONFIGURED = new Set(['/google/login', '/google/callback']);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/merge-patch+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'text/plain',
  'application/xml',
  'application/octet-stream',
  'json',
  '',
];

// Strings that have broken servers: NUL, lone surrogates, huge numbers, prototype keys.
const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b@example.com',
  '\ud800',
  '💥'.repeat(50),
  '__proto__',
  'constructor',
  "' OR 1=1 --",
  '1e999',
  '-0',
  'x'.repeat(5000),
  '<script>alert(1)</script>',
  'Password1!',
  'Blue-Kettle-42',
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x' + '0'.repeat(130),
  'app.test wants you to sign in with your Ethereum account:\n0x52908400098527886E0F7030069857D2E4169EE7\n\nSign in to Ayah, your AI learning coach.\n\nURI: http://app.test\nVersion: 1\nChain ID: 1\nNonce: 0123456789abcdef\nIssued At: 2024-01-01T00:00:00.000Z',
);

// File parts: images by their magic numbers (some cut short), markup dressed as images, noise.
const filePart = fc.record({
  bytes: fc.oneof(
    fc.constantFrom(
      Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
      Buffer.from('ffd8ffe0', 'hex'),
      Buffer.from('GIF89a'),
      Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 '),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      Buffer.from('<html></html>'),
      Buffer.alloc(0),
    ),
    fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  ),
  name: fc.oneof(
    fc.constantFrom('a.png', 'x.jpg', '../../etc/passwd', ''),
    fc.string({ maxLength: 20 }),
  ),
  type: fc.constantFrom('image/png', 'image/svg+xml', 'text/html', 'application/octet-stream', ''),
});

const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  nasty,
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

function bodyFor(fields: string[]) {
  const keyed = fields.length
    ? fc.dictionary(fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 8 })), value, {
        maxKeys: 6,
      })
    : fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 3 });
  return fc.oneof(
    keyed.map((b) => ({ raw: JSON.stringify(b), type: 'application/json' })),
    fc
      .jsonValue({ maxDepth: 4 })
      .map((b) => ({ raw: JSON.stringify(b) ?? 'null', type: 'application/json' })),
    fc
      .tuple(fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom(...CONTENT_TYPES))
      .map(([raw, type]) => ({ raw, type })),
    keyed.map((b) => ({
      raw: new URLSearchParams(
        Object.entries(b).map(([k, v]) => [
          k,
          typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
        ]),
      ).toString(),
      type: 'application/x-www-form-urlencoded',
    })),
    fc.constant({ raw: '', type: '' }),
    // Multipart, as browsers send it: text fields and file parts under known and unknown names.
    fc
      .array(
        fc.tuple(
          fc.oneof(fc.constantFrom('file', ...fields), fc.string({ maxLength: 8 })),
          fc.oneof(filePart, fc.string({ maxLength: 40 }), nasty),
        ),
        { maxLength: 4 },
      )
      .map((parts) => {
        const form = new FormData();
        for (const [name, part] of parts) {
          if (typeof part === 'string') form.append(name, part);
          else form.append(name, new Blob([part.bytes], { type: part.type }), part.name);
        }
        return { raw: form, type: 'multipart' };
      }),
  );
}

/** A query string for a GET route, from the same generated fields. */
function queryFor(fields: string[]) {
  if (!fields.length) return fc.constant('');
  return fc
    .dictionary(fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 8 })), value, {
      maxKeys: 4,
    })
    .map((q) => {
      const params = new URLSearchParams(
        Object.entries(q).map(([k, v]) => [
          k,
          typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
        ]),
      );
      return params.size ? `?${params}` : '';
    });
}

/** Path parameters: real-looking, malformed, and hostile. */
const pathParam = fc.oneof(
  fc.uuid(),
  fc.stringMatching(/^[0-9a-f]{64}$/),
  fc.constantFrom('..', '%2e%2e', 'null', '%00', 'x'.repeat(300)),
  fc.string({ unit: fc.constantFrom(...'abcdef0123456789-_.'), minLength: 1, maxLength: 70 }),
);

let user: SignedInUser;
beforeAll(async () => {
  if (h.url) user = await h.signedInUser();
});

describeServer('every auth route, with generated input', () => {
  it('never answers 5xx, and every error is FastAPI-shaped', async () => {
    const route = fc.constantFrom(...ROUTES).chain((r) =>
      fc.record({
        route: fc.constant(r),
        body: r.method === 'GET' ? fc.constant({ raw: '', type: '' }) : bodyFor(r.fields),
        query: r.method === 'GET' ? queryFor(r.fields) : fc.constant(''),
        params: fc.tuple(pathParam, pathParam),
        auth: fc.oneof(
          fc.constant<string | null>(null),
          fc.constant('valid'),
          fc
            .string({ unit: fc.constantFrom(...'abcXYZ019.-_ '), maxLength: 60 })
            .map((s) => `Bearer ${s}`),
          fc.constantFrom('Bearer', 'Basic abc', 'bearer  ', 'Bearer a.b.c'),
        ),
      }),
    );
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(route, async ({ route: r, body, auth, query, params }) => {
        const headers: Record<string, string> = {};
        if (body.type && typeof body.raw === 'string') headers['content-type'] = body.type;
        if (auth === 'valid') headers.authorization = `Bearer ${user.access_token}`;
        else if (auth) headers.authorization = auth;
        const path = r.path
          .replace('{user_id}', encodeURIComponent(params[0]))
          .replace('{etag}', encodeURIComponent(params[1]));
        const reply = await h.request(r.method, `/api/v1/auth${path}${query}`, undefined, {
          headers,
          raw: r.method === 'GET' ? undefined : body.raw,
        });
        const shown =
          typeof body.raw === 'string' ? body.raw.slice(0, 200) : JSON.stringify([...body.raw]);
        const context = `${r.method} ${path}${query} [${body.type}] ${shown} → ${reply.status} ${reply.text.slice(0, 300)}`;
        seen.set(reply.status, (seen.get(reply.status) ?? 0) + 1);
        if (UNCONFIGURED.has(r.path) && reply.status === 503) return;
        expect(reply.status, context).toBeLessThan(500);
        expect(reply.headers.get('content-type'), context).toContain('application/json');
        if (reply.status >= 400) expect(isFastApiError(reply.body), context).toBe(true);
        else expect(typeof reply.body, context).toBe('object');
      }),
      { numRuns: 1000 },
    );
    // The generators reach past the door: parsing, validation, and the rules behind it.
    expect([...seen.keys()].sort()).toEqual(expect.arrayContaining([200, 401, 415, 422]));
    expect(h.logs.filter((l) => l.level === 'error')).toEqual([]);
  }, 120_000);
});
