/**
 * Finding #6: deeply nested JSON (5,000 levels in `metadata` or `dashboardData`) is refused with a
 * 422 that names the field, never a 500; ordinary nesting still passes.
 */
import { expect, it } from 'vitest';

import { MAX_JSON_DEPTH } from '../../../server/http/json-depth';
import { describeServer, isFastApiError, useTestServer } from '../harness';

const h = useTestServer();

/** `levels` objects inside one another, as JSON text: {"a":{"a":…{"a":1}}} (built by hand: a
 * recursive JSON.stringify of 5,000 levels could itself overflow the test's stack). */
const objects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
/** An object holding `levels` arrays inside one another: {"a":[[…[1]…]]}. */
const arrays = (levels: number) => '{"a":' + '['.repeat(levels) + '1' + ']'.repeat(levels) + '}';

describeServer('deeply nested JSON', () => {
  it.each([
    ['metadata', 'objects', 5000],
    ['metadata', 'arrays', 5000],
    ['metadata', 'arrays', 1900], // short enough for the 4,000-character limit
    ['dashboardData', 'objects', 5000],
    ['dashboardData', 'arrays', 5000],
    ['dashboardData', 'arrays', 3900], // short enough for the 8,000-character limit
  ] as const)('refuses %s of %s nested %i levels deep with 422', async (field, shape, levels) => {
    const user = await h.user();
    const nested = shape === 'objects' ? objects(levels) : arrays(levels);
    const raw =
      field === 'metadata'
        ? `{"text":"Fractions","metadata":${nested}}`
        : `{"messages":[{"role":"user","content":"Hi"}],"dashboardData":${nested}}`;
    const route = field === 'metadata' ? '/api/v1/vector/store-user-data' : '/api/v1/chat/send';
    const reply = await h.request('POST', route, undefined, {
      token: user.token,
      raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status, reply.text.slice(0, 300)).toBe(422);
    expect(isFastApiError(reply.body)).toBe(true);
    expect(JSON.stringify(reply.body.detail)).toContain(field);
    expect(h.logs.filter((l) => l.level === 'error')).toEqual([]);
  });

  it(`accepts ordinary nesting, up to ${MAX_JSON_DEPTH} levels`, async () => {
    const user = await h.user();
    const stored = await h.as(user).post('/api/v1/vector/store-user-data', {
      text: 'Fractions',
      metadata: { lesson: { unit: { step: [1, 2] } } },
    });
    expect(stored.status).toBe(201);
    const sent = await h.as(user).post('/api/v1/chat/send', {
      messages: [{ role: 'user', content: 'Hi' }],
      dashboardData: JSON.parse(objects(MAX_JSON_DEPTH)),
    });
    expect(sent.status).toBe(200);
    const deeper = await h.as(user).post('/api/v1/chat/send', {
      messages: [{ role: 'user', content: 'Hi' }],
      dashboardData: JSON.parse(objects(MAX_JSON_DEPTH + 1)),
    });
    expect(deeper.status).toBe(422);
  });
});
