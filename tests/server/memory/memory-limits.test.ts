/**
 * Learning-memory writes are bounded per student (red team round 3, #9): so many a minute (429 with
 * Retry-After) and so many rows in all (409, however many writes come at once), another student
 * unaffected; the tutor's memory of a reply takes the place of its oldest instead.
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

  it("makes room for the tutor's memory of a reply in place of its oldest, not the student's notes", async () => {
    const texts = async (user: { id: string }) =>
      (
        await small.sql<{ text: string }>(
          sql`select text from learning_memories where user_id = ${user.id} order by created_at`,
        )
      ).map((r) => r.text);
    const asking = (api: ReturnType<typeof small.as>) => async (content: string) =>
      expect(
        (await api.post('/api/v1/chat/send', { messages: [{ role: 'user', content }] })).status,
      ).toBe(200);

    // Full of the tutor's memories: the oldest gives its place.
    const tutored = await small.user();
    const ask = asking(small.as(tutored));
    await ask('What is 2 + 2?');
    await ask('What is 3 + 3?');
    expect(await texts(tutored)).toEqual([
      'Asked Ayah: What is 2 + 2?',
      'Asked Ayah: What is 3 + 3?',
    ]);
    await ask('What is 4 + 4?');
    expect(await texts(tutored)).toEqual([
      'Asked Ayah: What is 3 + 3?',
      'Asked Ayah: What is 4 + 4?',
    ]);

    // The student's own note is never the one to go, even one whose metadata looks like the
    // tutor's; a store they ask for is still refused.
    const noting = await small.user();
    const api = small.as(noting);
    expect((await api.post(V, { text: 'my own note', metadata: { source: 'chat' } })).status).toBe(
      201,
    );
    await asking(api)('What is 5 + 5?');
    await asking(api)('What is 6 + 6?');
    expect(await texts(noting)).toEqual(['my own note', 'Asked Ayah: What is 6 + 6?']);
    expect((await api.post(V, { text: 'another note' })).status).toBe(409);
    expect(await texts(noting)).toHaveLength(2);
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
