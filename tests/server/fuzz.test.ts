/**
 * Property: whatever body, content type or token is thrown at an auth route, the server never answers
 * 5xx, and every error is FastAPI-shaped.
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import type { SignedInUser } from './harness';
import { describeServer, isFastApiError, useServer } from './harness';

const h = useServer();

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
];

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
);

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
  );
}

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
      fc.asyncProperty(route, async ({ route: r, body, auth }) => {
        const headers: Record<string, string> = {};
        if (body.type) headers['content-type'] = body.type;
        if (auth === 'valid') headers.authorization = `Bearer ${user.access_token}`;
        else if (auth) headers.authorization = auth;
        const reply = await h.request(r.method, `/api/v1/auth${r.path}`, undefined, {
          headers,
          raw: r.method === 'GET' ? undefined : body.raw,
        });
        const context = `${r.method} ${r.path} [${body.type}] ${body.raw.slice(0, 200)} → ${reply.status} ${reply.text.slice(0, 300)}`;
        seen.set(reply.status, (seen.get(reply.status) ?? 0) + 1);
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
