/**
 * Property: whatever body, query or path id is thrown at a chat, memory, goal or token route, the server
 * never answers 5xx, and every error is FastAPI-shaped.
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';

import type { TestUser } from '../harness';
import { describeServer, isFastApiError, useTestServer } from '../harness';

const h = useTestServer();

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const ROUTES: { method: Method; path: string; fields: string[] }[] = [
  {
    method: 'POST',
    path: '/chat/send',
    fields: ['messages', 'sessionId', 'threadId', 'dashboardData'],
  },
  { method: 'POST', path: '/chat/send/stream', fields: ['messages', 'sessionId', 'dashboardData'] },
  { method: 'GET', path: '/chat/sessions', fields: [] },
  { method: 'GET', path: '/chat/sessions/{id}', fields: [] },
  { method: 'PATCH', path: '/chat/sessions/{id}/title', fields: ['title'] },
  { method: 'DELETE', path: '/chat/sessions/{id}', fields: [] },
  { method: 'GET', path: '/chat/search', fields: [] },
  { method: 'GET', path: '/chat/archives', fields: [] },
  { method: 'PATCH', path: '/chat/sessions/{id}/archive', fields: [] },
  { method: 'POST', path: '/vector/store-user-data', fields: ['text', 'metadata'] },
  { method: 'POST', path: '/vector/search-user-data', fields: ['query', 'limit'] },
  { method: 'POST', path: '/goal', fields: ['subject', 'goal_type', 'target_value'] },
  { method: 'PUT', path: '/goal/{id}', fields: ['target_value'] },
  { method: 'POST', path: '/goal/{id}/progress', fields: ['value', 'topic', 'minutes'] },
  { method: 'GET', path: '/goal/{id}/progress', fields: [] },
  { method: 'GET', path: '/goal/activities', fields: [] },
  { method: 'POST', path: '/web3-tokens/convert-points-to-finu', fields: ['points'] },
  { method: 'GET', path: '/web3-tokens/transaction/{id}', fields: [] },
  { method: 'GET', path: '/web3-tokens/activity', fields: [] },
];

const nasty = fc.constantFrom(
  '\u0000',
  '\ud800',
  '%',
  '_',
  "'; drop table users; --",
  '\\',
  '1e999',
  '-1',
  '0',
  'x'.repeat(5000),
  '00000000-0000-0000-0000-000000000000',
  '__proto__',
);
const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), nasty, fc.integer(), fc.double());
const messages = fc.array(
  fc.record({
    role: fc.constantFrom('user', 'assistant', 'system'),
    content: fc.oneof(fc.string(), nasty),
  }),
  { maxLength: 3 },
);

function bodyFor(fields: string[]) {
  const keyed = fc.dictionary(
    fc.oneof(fc.constantFrom(...(fields.length ? fields : ['x'])), fc.string({ maxLength: 6 })),
    fc.oneof(value, messages),
    { maxKeys: 5 },
  );
  return fc.oneof(
    keyed.map((b) => JSON.stringify(b)),
    fc.jsonValue({ maxDepth: 3 }).map((b) => JSON.stringify(b) ?? 'null'),
    fc.string({ maxLength: 100 }),
  );
}

const query = fc
  .dictionary(
    fc.constantFrom('limit', 'page', 'search', 'x'),
    fc.oneof(fc.string({ maxLength: 8 }), nasty),
  )
  .map((q) => new URLSearchParams(q).toString());

/** A path segment (a lone surrogate cannot be percent-encoded: it becomes U+FFFD, as a browser does). */
const safeSegment = (id: string) =>
  encodeURIComponent(id.replace(/[\ud800-\udfff]/g, '\ufffd')) || 'x';

let user: TestUser;
beforeAll(async () => {
  if (h.url) user = await h.user();
});

describeServer('every learning route, with generated input', () => {
  it('never answers 5xx, and every error is FastAPI-shaped', async () => {
    const input = fc.constantFrom(...ROUTES).chain((r) =>
      fc.record({
        route: fc.constant(r),
        id: fc.oneof(fc.uuid(), nasty, fc.string({ maxLength: 10 })),
        body: r.method === 'GET' || r.method === 'DELETE' ? fc.constant('') : bodyFor(r.fields),
        query,
        signedIn: fc.boolean(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(input, async ({ route, id, body, query: q, signedIn }) => {
        const path = route.path.replace('{id}', safeSegment(id));
        const headers: Record<string, string> = {};
        if (body) headers['content-type'] = 'application/json';
        if (signedIn) headers.authorization = `Bearer ${user.token}`;
        const response = await fetch(`${h.url}/api/v1${path}?${q}`, {
          method: route.method,
          headers,
          body: body || undefined,
        });
        const text = await response.text();
        expect(response.status, `${route.method} ${path} → ${text.slice(0, 200)}`).toBeLessThan(
          500,
        );
        if (response.status >= 400) expect(isFastApiError(JSON.parse(text))).toBe(true);
      }),
      { numRuns: 250 },
    );
  });
});
