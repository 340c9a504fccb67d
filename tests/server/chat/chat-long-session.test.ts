/**
 * Issue 22 #3: long sessions and floods of session writes. A session's search index is kept in
 * bounded chunks (a write touches one), session writes are rate-limited, and a request that would
 * queue behind a row lock held by another answers 409 instead of holding a pooled connection. The
 * timings of a send and a rename on a 1,000-message session are bench figures (`npm run
 * bench:search`), not asserted here.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it, vi } from 'vitest';

import { CHAT_MESSAGES, CHUNK_CHARS, reindexSessions } from '../../../server/chat/service';
import { BUSY_MESSAGES } from '../../../server/http/errors';
import type { TestUser } from '../harness';
import { describeServer, isFastApiError, onPostgres, useTestServer } from '../harness';
import { chunkTexts, packedChunks } from './chunks';

const C = '/api/v1/chat';
const WRITES = 8;
// The search filer files what waits after a short quiet spell (one test waits for it); the others
// settle it themselves before they read the chunks.
const h = useTestServer({
  limits: { chatWrites: { limit: WRITES, windowMs: 60_000 } },
  chat: { searchFiling: { quietMs: 150, maxWaitMs: 3_000 } },
});

const say = (content: string, sessionId?: string) => ({
  messages: [{ role: 'user', content }],
  ...(sessionId ? { sessionId } : {}),
});

type Rows<T> = { rows: T[] };

/** A session of `messages` messages written straight in the database, then indexed for search. */
async function seedSession(user: TestUser, title: string, messages: number): Promise<string> {
  const { rows } = (await h.database.db.execute(sql`
    insert into chat_sessions (user_id, title, message_count, created_at, last_message_at)
    values (${user.id}, ${title}, ${messages}, now() - interval '1 day', now() - interval '1 hour')
    returning id`)) as unknown as Rows<{ id: string }>;
  const id = rows[0]!.id;
  await h.database.db.execute(sql`
    insert into chat_messages (session_id, user_id, role, content, created_at)
    select ${id}, ${user.id}, case when k % 2 = 0 then 'user' else 'assistant' end,
           'Chapter talk: we read the story again. ' ||
           case when k = 3 then 'The hero is PELICAN-three. ' else '' end ||
           repeat('Keep reading. ', 5),
           now() - interval '1 day' + (k || ' seconds')::interval
    from generate_series(1, ${messages}) k`);
  await reindexSessions(h.database.db, sql`s.id = ${id}`);
  return id;
}

async function chunksOf(sessionId: string) {
  const { rows } = (await h.database.db.execute(sql`
    select seq, length(text) as n from chat_search_chunks where session_id = ${sessionId}
    order by seq`)) as unknown as Rows<{ seq: number; n: number }>;
  return rows.map((r) => ({ seq: Number(r.seq), n: Number(r.n) }));
}

describeServer('long chat sessions and floods of session writes', () => {
  let sam: TestUser;
  beforeAll(async () => {
    sam = await h.user('Sam');
  });

  it('keeps a 1,000-message session searchable in bounded chunks; a write touches one', async () => {
    const user = await h.user();
    const api = h.as(user);
    const ids = (q: string) => h.searchIds(user, q);
    const id = await seedSession(user, 'Fractions marathon', 1000);
    const before = await chunksOf(id);
    // Chunk 0 is the title; the messages are spread over many chunks, none past the bound (built
    // as migration 0012 does: a chunk may end with one message past CHUNK_CHARS).
    expect(before[0]).toEqual({ seq: 0, n: 'fractions marathon'.length });
    expect(before.length).toBeGreaterThan(5);
    for (const chunk of before) expect(chunk.n).toBeLessThanOrEqual(CHUNK_CHARS + 200);

    // An old message, the title, a two-letter needle: found as before.
    expect(await ids('pelican-THREE')).toEqual([id]);
    expect(await ids('marathon')).toEqual([id]);
    expect(await ids('k:')).toEqual([id]);
    // Never across two messages, nor from the title into a message.
    expect(await ids('reading. chapter')).toEqual([]);
    expect(await ids('marathon chapter')).toEqual([]);

    // A send appends the message (and the reply) to the last chunk or a new one; the rest stay.
    const sent = await api.post(`${C}/send`, say('Where does the ZEBRA-numerator go?', id));
    expect(sent.status).toBe(200);
    await h.settle();
    const after = await chunksOf(id);
    expect(after).not.toEqual(before);
    expect(after.slice(0, before.length - 1)).toEqual(before.slice(0, -1));
    expect(after.length - before.length).toBeLessThanOrEqual(2);
    for (const chunk of after) expect(chunk.n).toBeLessThanOrEqual(CHUNK_CHARS + 200);
    expect(await ids('zebra-numerator')).toEqual([id]);

    // A rename rewrites the title's chunk alone.
    const renamed = await api.patch(`${C}/sessions/${id}/title`, { title: 'Long division' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, title: 'Long division', messageCount: 1002 });
    expect(await chunksOf(id)).toEqual([{ seq: 0, n: 'long division'.length }, ...after.slice(1)]);
    expect(await ids('marathon')).toEqual([]);
    expect(await ids('DIVISION')).toEqual([id]);
    expect(await ids('pelican-three')).toEqual([id]);
    // Archived, still found (marked).
    await api.patch(`${C}/sessions/${id}/archive`);
    const hit = (await api.get(`${C}/search?search=pelican`)).body.sessions;
    expect(hit).toMatchObject([{ id, archived: true }]);
  });

  it('starts a new chunk for a message the last one has no room for', async () => {
    const user = await h.user();
    const api = h.as(user);
    const id = (await api.post(`${C}/send`, say('short start'))).body.sessionId as string;
    // Each about half a chunk, so that two never share one with a reply between them.
    const long = (n: number) =>
      `${'tall '.repeat(Math.floor(CHUNK_CHARS / 10))}HERON number ${n} ends here`;
    for (const n of [1, 2, 3])
      expect((await api.post(`${C}/send`, say(long(n), id))).status).toBe(200);
    await h.settle();
    const { rows } = (await h.database.db.execute(sql`
      select length(text) as n, length(text) - length(replace(text, chr(1), '')) as pieces
      from chat_search_chunks where session_id = ${id} and seq > 0`)) as unknown as Rows<{
      n: number;
      pieces: number;
    }>;
    // Three such messages and their replies take three or more chunks, none past the bound unless
    // it holds one message alone (a longer message gets a chunk of its own).
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const chunk of rows)
      if (Number(chunk.pieces) > 1) expect(Number(chunk.n)).toBeLessThanOrEqual(CHUNK_CHARS);
    const found = await api.get(`${C}/search?search=${encodeURIComponent('heron number 3 ends')}`);
    expect(found.body.sessions.map((s: { id: string }) => s.id)).toEqual([id]);
  });

  it('files each question and its reply in the chunks as one append after the other would', async () => {
    const user = await h.user();
    const api = h.as(user);
    // Questions of every size against the bound: each reply joins its question's chunk, or not.
    // Filed after some sends and not others: one turn, two, or three at a time.
    const sizes = [40, 600, 300, 950, 20, CHUNK_CHARS + 150, 500, 480, 10];
    const settleAfter = new Set([0, 1, 4, 6]);
    let id: string | undefined;
    for (const [i, size] of sizes.entries()) {
      const question = `Question ${i}: ${'why '.repeat(size)}`.slice(0, size);
      const sent = await api.post(`${C}/send`, say(question, id));
      expect(sent.status).toBe(200);
      id = sent.body.sessionId as string;
      if (settleAfter.has(i)) await h.settle();
    }
    await h.settle();
    const [messages] = await h.sql<{ n: number }>(
      sql`select count(*)::int as n from chat_messages where session_id = ${id}`,
    );
    expect(messages!.n).toBe(sizes.length * 2);
    expect(await chunkTexts(h, id!)).toEqual(await packedChunks(h, id!));
  });

  it('files waiting messages by itself once sends go quiet', async () => {
    const user = await h.user();
    const api = h.as(user);
    const id = (await api.post(`${C}/send`, say('Why is the OSPREY a raptor?'))).body
      .sessionId as string;
    // Nobody settles it: the filer does, after its quiet spell.
    await vi.waitFor(
      async () => {
        const [row] = await h.sql<{ p: string[] | null }>(
          sql`select search_pending as p from chat_sessions where id = ${id}`,
        );
        expect(row!.p).toBeNull();
      },
      { timeout: 10_000, interval: 50 },
    );
    const [title] = await h.sql<{ text: string }>(
      sql`select text from chat_search_chunks where session_id = ${id} and seq = 0`,
    );
    expect(title!.text).toBe('why is the osprey a raptor?');
    expect(await chunkTexts(h, id)).toEqual(await packedChunks(h, id));
    expect(await h.searchIds(user, 'osprey')).toEqual([id]);
  });

  it('rate-limits session writes per student (429 with Retry-After); others still write', async () => {
    const user = await h.user();
    const api = h.as(user);
    const id = (await api.post(`${C}/send`, say('rename me'))).body.sessionId as string;
    const replies = await Promise.all(
      Array.from({ length: WRITES + 4 }, (_, i) =>
        api.patch(`${C}/sessions/${id}/title`, { title: `Title ${i}` }),
      ),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(WRITES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const limited = replies.find((r) => r.status === 429)!;
    expect(limited.body).toEqual({ detail: CHAT_MESSAGES.tooFast });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Every session write counts, not only renames; another student is not limited.
    expect((await api.patch(`${C}/sessions/${id}/archive`)).status).toBe(429);
    expect((await api.delete(`${C}/sessions/${id}`)).status).toBe(429);
    const other = (await h.as(sam).post(`${C}/send`, say('mine'))).body.sessionId as string;
    expect((await h.as(sam).patch(`${C}/sessions/${other}/title`, { title: 'Fine' })).status).toBe(
      200,
    );
    h.advanceClock(61_000);
    try {
      expect((await api.patch(`${C}/sessions/${id}/title`, { title: 'Later' })).status).toBe(200);
    } finally {
      h.resetClock();
    }
  });

  // PGlite runs one transaction at a time, so no request ever waits on another's row lock there.
  it.skipIf(!onPostgres)(
    'answers 409 instead of queueing behind a lock another request holds',
    { timeout: 60_000 },
    async () => {
      const user = await h.user();
      const api = h.as(user);
      const id = (await api.post(`${C}/send`, say('hold me'))).body.sessionId as string;
      // Another transaction holds the session's row (a stalled write of the same account) …
      await h.database.db.transaction(async (tx) => {
        await tx.execute(sql`select id from chat_sessions where id = ${id} for update`);
        const rename = await api.patch(`${C}/sessions/${id}/title`, { title: 'Blocked' });
        expect(rename.status).toBe(409);
        expect(rename.body).toEqual({ detail: BUSY_MESSAGES.locked });
        expect(rename.headers.get('retry-after')).toBe('1');
        const send = await api.post(`${C}/send`, say('and again', id));
        expect(send.status).toBe(409);
        expect(isFastApiError(send.body)).toBe(true);
      });
      // … and the user's row: a new chat's send waits no longer either.
      await h.database.db.transaction(async (tx) => {
        await tx.execute(sql`select id from users where id = ${user.id} for update`);
        expect((await api.post(`${C}/send`, say('a new chat'))).status).toBe(409);
      });
      // Nothing was half-written: the title and the messages are as before.
      const session = (await api.get(`${C}/sessions/${id}`)).body;
      expect(session).toMatchObject({ title: 'hold me', messageCount: 2 });
      expect((await api.patch(`${C}/sessions/${id}/title`, { title: 'Free' })).status).toBe(200);
    },
  );
});
