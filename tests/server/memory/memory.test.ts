/** `/api/v1/vector` over real HTTP: full-text ranking without a model, embeddings with one; per user. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FakeOpenAI } from '../fake-openai';
import type { Harness, HarnessOptions } from '../harness';
import { describeServer, isFastApiError, useTestServer } from '../harness';

const V = '/api/v1/vector';
const fake = new FakeOpenAI();
const withModel: HarnessOptions = { llm: {} };
beforeAll(async () => {
  await fake.start();
  withModel.llm = { baseUrl: fake.url, model: 'tutor-test', embeddingModel: 'embed-test' };
});
afterAll(() => fake.close());

const plain = useTestServer();
const embedded = useTestServer(withModel);

function behaves(h: Harness) {
  it('stores and finds the caller’s own data, best first', async () => {
    const user = await h.user();
    const api = h.as(user);
    const a = await api.post(`${V}/store-user-data`, {
      text: 'Practised adding fractions with unlike denominators',
      metadata: { subject: 'math', week: 12 },
    });
    expect(a.status).toBe(201);
    expect(a.body.id).toMatch(/^[0-9a-f-]{36}$/);
    await api.post(`${V}/store-user-data`, {
      text: 'Read about the causes of the First World War',
    });
    await api.post(`${V}/store-user-data`, {
      text: 'Learned how plants make food by photosynthesis',
    });

    const found = await api.post(`${V}/search-user-data`, {
      query: 'adding fractions with denominators',
      limit: 2,
    });
    expect(found.status).toBe(200);
    expect(found.body.results[0]).toMatchObject({
      id: a.body.id,
      text: 'Practised adding fractions with unlike denominators',
      metadata: { subject: 'math', week: 12 },
    });
    expect(typeof found.body.results[0].score).toBe('number');
    expect(found.body.results.length).toBeLessThanOrEqual(2);

    const stranger = h.as(await h.user());
    const theirs = await stranger.post(`${V}/search-user-data`, { query: 'fractions' });
    expect(theirs.body.results).toEqual([]);
  });

  it('validates bodies (422) and asks for a token (401)', async () => {
    const api = h.as(await h.user());
    for (const body of [
      {},
      { text: '' },
      { text: '   ' },
      { text: 'x'.repeat(8001) },
      { text: 'ok', metadata: 'nope' },
      { text: 'ok', extra: 1 },
    ]) {
      const reply = await api.post(`${V}/store-user-data`, body);
      expect(reply.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(isFastApiError(reply.body)).toBe(true);
    }
    for (const body of [{}, { query: '' }, { query: 'x', limit: 0 }, { query: 'x', limit: 21 }]) {
      expect((await api.post(`${V}/search-user-data`, body)).status).toBe(422);
    }
    expect((await api.post(`${V}/store-user-data`, { text: 'x'.repeat(8000) })).status).toBe(201);
    expect((await h.request('POST', `${V}/search-user-data`, { query: 'x' })).status).toBe(401);
  });

  it('refuses a lone surrogate in metadata with 422, as in the text (nothing stored)', async () => {
    const api = h.as(await h.user());
    for (const body of [
      { text: 'ok', metadata: { note: 'half \ud800 a pair' } },
      { text: 'ok', metadata: { ['key \udc00']: 1 } },
      { text: 'ok', metadata: { deep: [{ x: '\udfff' }] } },
      { text: 'half \ud800 a pair' },
    ]) {
      const reply = await api.post(`${V}/store-user-data`, body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(isFastApiError(reply.body)).toBe(true);
    }
    const found = await api.post(`${V}/search-user-data`, { query: 'ok half pair' });
    expect(found.body.results).toEqual([]);
    const pair = await api.post(`${V}/store-user-data`, {
      text: 'ok',
      metadata: { e: '\ud83d\ude00' },
    });
    expect(pair.status).toBe(201);
  });

  it('survives any query text', async () => {
    const api = h.as(await h.user());
    await api.post(`${V}/store-user-data`, { text: "O'Brien's 100% sure: a_b \\ c" });
    for (const query of ["O'Brien", '100%', 'a_b', '\\', '!!!', '& | ! ( ) :*', 'the and of']) {
      const reply = await api.post(`${V}/search-user-data`, { query });
      expect(reply.status, query).toBe(200);
      expect(Array.isArray(reply.body.results)).toBe(true);
    }
  });
}

describeServer('learning memory with full-text ranking (no model)', () => behaves(plain));

describeServer('learning memory with embeddings from the endpoint', () => {
  behaves(embedded);
  describe('embeddings', () => {
    it('asks the endpoint for embeddings and ranks by them', async () => {
      const before = fake.requests.filter((r) => r.path.endsWith('/embeddings')).length;
      const api = embedded.as(await embedded.user());
      await api.post(`${V}/store-user-data`, { text: 'zzz zzz zzz' });
      await api.post(`${V}/store-user-data`, { text: 'aaa bbb' });
      const found = await api.post(`${V}/search-user-data`, { query: 'zz', limit: 2 });
      expect(found.body.results[0].text).toBe('zzz zzz zzz');
      expect(found.body.results[0].score).toBeCloseTo(1, 5);
      const after = fake.requests.filter((r) => r.path.endsWith('/embeddings'));
      expect(after.length).toBe(before + 3);
      expect(after.at(-1)!.body.model).toBe('embed-test');
    });

    it('recalls by embeddings before a reply, once the send is taken', async () => {
      const user = await embedded.user();
      await embedded
        .as(user)
        .post(`${V}/store-user-data`, { text: 'Built a compass with a needle' });
      const question = 'What makes a needle point north?';
      fake.script({ kind: 'chunks', chunks: ['Magnetism!'] });
      const response = await fetch(`${embedded.url}/api/v1/chat/send/stream`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: question }] }),
      });
      expect(await response.text()).toContain('event: done');
      // The question was embedded to recall by, before the model was called (the turn's own memory
      // is embedded after), and the model's prompt has what it recalled.
      const called = fake.requests.findLastIndex((r) => r.path.endsWith('/chat/completions'));
      const recalledBy = fake.requests.findIndex(
        (r) => r.path.endsWith('/embeddings') && JSON.stringify(r.body.input).includes(question),
      );
      expect(recalledBy).toBeGreaterThanOrEqual(0);
      expect(recalledBy).toBeLessThan(called);
      const [system] = fake.completions().at(-1)!.body.messages as { content: string }[];
      expect(system!.content).toContain('Built a compass with a needle');
    });

    it('ends a reply’s stream at done; the tutor remembers the turn after', async () => {
      const user = await embedded.user();
      fake.embeddingDelayMs = 600;
      try {
        const response = await fetch(`${embedded.url}/api/v1/chat/send/stream`, {
          method: 'POST',
          headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ messages: [{ role: 'user', content: 'How do magnets work?' }] }),
        });
        const text = await response.text();
        const endedAt = Date.now();
        expect(text).toContain('event: done');
        // The turn's memory is stored and embedded after the stream ended.
        const asked = 'Asked Ayah: How do magnets work?';
        const embeddedYet = () =>
          embedded.sql(
            sql`select 1 from learning_memories
                where user_id = ${user.id} and text = ${asked} and embedding is not null`,
          );
        const until = Date.now() + 5000;
        while ((await embeddedYet()).length === 0) {
          if (Date.now() > until) throw new Error('the turn was never remembered');
          await new Promise((r) => setTimeout(r, 20));
        }
        const remembering = fake.requests.find(
          (r) => r.path.endsWith('/embeddings') && JSON.stringify(r.body.input).includes(asked),
        );
        expect(remembering!.answeredAt).toBeGreaterThan(endedAt);
      } finally {
        fake.embeddingDelayMs = 0;
      }
    });
  });
});
