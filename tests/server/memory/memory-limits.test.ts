/**
 * Learning-memory writes are bounded per student (red team round 3, #9): so many a minute (429 with
 * Retry-After) and so many rows in all (409, however many writes come at once), another student
 * unaffected.
 */
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { MEMORY_MESSAGES } from '../../../server/memory/service';
import { describeServer, useTestServer } from '../harness';

const V = '/api/v1/vector/store-user-data';
const fast = useTestServer({ limits: { memoryWrites: { limit: 3, windowMs: 60_000 } } });
const small = useTestServer({ limits: { memoryMaxRows: 2 } });

describeServer('learning-memory limits', () => {
  it('limits writes a minute per student (429 + Retry-After)', async () => {
    const api = fast.as(await fast.user());
    for (let i = 0; i < 3; i++) expect((await api.post(V, { text: `note ${i}` })).status).toBe(201);
    const limited = await api.post(V, { text: 'one more' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ detail: MEMORY_MESSAGES.tooFast });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await fast.as(await fast.user()).post(V, { text: 'mine' })).status).toBe(201);
  });

  it('keeps at most so many memories per student (409), nothing stored beyond', async () => {
    const user = await small.user();
    const api = small.as(user);
    expect((await api.post(V, { text: 'first' })).status).toBe(201);
    expect((await api.post(V, { text: 'second' })).status).toBe(201);
    const full = await api.post(V, { text: 'third' });
    expect(full.status).toBe(409);
    expect(full.body).toEqual({ detail: MEMORY_MESSAGES.full });
    const rows = await small.sql<{ n: number | string }>(
      sql`select count(*) as n from learning_memories where user_id = ${user.id}`,
    );
    expect(Number(rows[0]!.n)).toBe(2);
  });

  it('gives the last free place to one of many writes at once', async () => {
    const user = await small.user();
    const api = small.as(user);
    expect((await api.post(V, { text: 'kept' })).status).toBe(201);
    // Counted and written under the student's lock, in one transaction: not all see a free place.
    const racing = await Promise.all(
      Array.from({ length: 30 }, (_, i) => api.post(V, { text: `at once ${i}` })),
    );
    expect(racing.filter((r) => r.status === 201)).toHaveLength(1);
    expect(racing.filter((r) => r.status === 409)).toHaveLength(29);
    const rows = await small.sql<{ n: number | string }>(
      sql`select count(*) as n from learning_memories where user_id = ${user.id}`,
    );
    expect(Number(rows[0]!.n)).toBe(2);
  });
});
