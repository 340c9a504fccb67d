/**
 * `/api/v1/chat` over real HTTP with no model configured (the offline coach): sessions, titles,
 * paging, archive, rename, delete, search, the 10th-message award, the rate limit and isolation.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';

import { reindexSessions, SEARCH_COUNT_LIMIT } from '../../../server/chat/service';
import { STREAM_CAP_MESSAGE } from '../../../server/chat/stream-cap';
import { mathsReady } from '../../../server/llm/tools';
import type { TestUser } from '../harness';
import { describeServer, isFastApiError, parseSse, useTestServer } from '../harness';
import { SLOW_EQUATION } from '../slow-maths';

const h = useTestServer({ chat: { rateLimit: 12 } });
const C = '/api/v1/chat';

const say = (content: string, sessionId?: string) => ({
  messages: [{ role: 'user', content }],
  ...(sessionId ? { sessionId } : {}),
});

/** A new student's chat opened with `opening`: answers a `send` that posts the next line and reads the reply. */
async function conversation(name: string, opening: string) {
  const api = h.as(await h.user(name));
  const first = await api.post(`${C}/send`, say(opening));
  expect(first.status).toBe(200);
  const { sessionId } = first.body;
  return async (text: string) => {
    const res = await api.post(`${C}/send`, say(text, sessionId));
    expect(res.status).toBe(200);
    return res.body.response as string;
  };
}

describeServer('chat with the offline coach', () => {
  let sam: TestUser;
  beforeAll(async () => {
    sam = await h.user('Sam');
    // As server/main.ts does at start: the engines load before the first question (on a busy
    // runner that takes most of a test's time, so it is the hook's, not the first test's).
    await mathsReady();
  }, 60_000);

  it('creates a session on the first send; the offline coach speaks to the student, not the operator', async () => {
    const user = await h.user('Ada');
    const api = h.as(user);
    await api.post('/api/v1/goal', {
      subject: 'math',
      goal_type: 'problems_solved',
      target_value: 10,
    });
    const sent = await api.post(
      `${C}/send`,
      say('  How do I add fractions with different denominators?  '),
    );
    expect(sent.status).toBe(200);
    const { response, sessionId, threadId } = sent.body;
    expect(response).toContain("The full tutor isn't connected here yet");
    expect(response).toContain('ask your teacher');
    expect(response).not.toMatch(/AYAH_|environment|configur|\bmodel\b/i);
    expect(response).toContain('[Goals page](/goal)');
    expect(response).toContain('Math: 0 of 10 problems');
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(threadId).toMatch(/^[0-9a-f-]{36}$/);

    const session = (await api.get(`${C}/sessions/${sessionId}`)).body;
    expect(session).toMatchObject({
      id: sessionId,
      title: 'How do I add fractions with different denominators?',
      messageCount: 2,
    });
    expect(session.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(session.messages[0].content).toBe('How do I add fractions with different denominators?');
    expect(session.messages[1].content).toBe(response);

    const again = await api.post(`${C}/send`, {
      messages: [
        { role: 'user', content: 'How do I add fractions with different denominators?' },
        { role: 'assistant', content: response },
        { role: 'user', content: 'And subtract them?' },
      ],
      sessionId,
      threadId,
      dashboardData: { tokens: 12 },
    });
    expect(again.body).toMatchObject({ sessionId, threadId });
    expect((await api.get(`${C}/sessions/${sessionId}`)).body.messageCount).toBe(4);
  });

  it('streams the offline coach through the same path', async () => {
    const api = h.as(sam);
    const reply = await fetch(h.url + `${C}/send/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sam.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(say('What is photosynthesis?')),
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await reply.text());
    const chunks = events.filter((e) => e.event === 'chunk');
    expect(chunks.length).toBeGreaterThan(3);
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect(chunks.map((c) => c.data).join('')).toBe(done.data.response);
    expect((await api.get(`${C}/sessions/${done.data.sessionId}`)).body.title).toBe(
      'What is photosynthesis?',
    );
  });

  it('tutors an equation step by step across turns, from the stored conversation', async () => {
    const api = h.as(await h.user('Lina'));
    const first = await api.post(`${C}/send`, say('Can you help me solve 2x + 3 = 11?'));
    expect(first.status).toBe(200);
    const { sessionId } = first.body;
    // A hint and a question first, not the answer.
    expect(first.body.response).toMatch(/\*\*Hint:\*\* subtract \$3\$ from both sides/);
    expect(first.body.response).not.toContain('**Answer:**');

    // Each 'next step' carries only the new turn: the coach reads the rest from the session.
    const replies: string[] = [];
    for (let turn = 0; turn < 8 && !replies.at(-1)?.includes('**Answer:**'); turn++) {
      const next = await api.post(`${C}/send`, say('next step', sessionId));
      expect(next.status).toBe(200);
      expect(next.body.sessionId).toBe(sessionId);
      replies.push(next.body.response);
    }
    expect(replies[0]).toContain('**Step 1 of 3**: Subtract $3$ from both sides.');
    expect(replies.at(-1)).toContain('**Answer:** $x = 4$');
    const stored = (await api.get(`${C}/sessions/${sessionId}`)).body;
    expect(stored.messageCount).toBe(2 + 2 * replies.length);
  });

  it("checks the student's own steps, then calls copying the shown answer copying", async () => {
    const send = await conversation('Omar', 'Solve 2x + 3 = 11');
    const wrong = await send('2x = 14');
    expect(wrong).toMatch(/^Not quite/);
    expect(wrong).toContain('We subtract $3$ from both sides, and $11-3$ is $8$, not $14$.');
    const right = await send('2x = 8');
    expect(right).toMatch(/^Yes, that's the next step!/);
    expect(right).toContain('**Step 2 of 3**');
    // The coach goes on from the student's step, still on 2x + 3 = 11.
    const next = await send('next step');
    expect(next).toContain('**Step 3 of 3**: Divide both sides by $2$.');
    expect(next).toContain('**Answer:** $x = 4$');
    const copied = await send('x = 4');
    expect(copied).toMatch(/^That's the answer I showed you — try the next one yourself!/);
    expect(copied).not.toContain('well done');

    const compare = await send('Is 7/8 bigger than 5/6?');
    expect(compare).toContain('common denominator: $24$');
    const shown = await send('next step');
    expect(shown).toContain('\\frac{7}{8} = \\frac{21}{24}');
    expect(shown).toContain('\\frac{5}{6} = \\frac{20}{24}');
    expect(await send('next step')).toContain('**Answer:** $\\frac{7}{8} > \\frac{5}{6}$');
  });

  it('checks a typed answer to a comparison, and tutors decimals like fractions', async () => {
    const send = await conversation('Noor', 'Is 7/8 bigger than 5/6?');
    const no = await send('no');
    expect(no).toMatch(/^Not quite/);
    expect(no).toContain('$\\frac{7}{8}$ is bigger than $\\frac{5}{6}$');
    expect(no).toContain('\\frac{7}{8} = \\frac{21}{24}');
    expect(await send('Is 0.7 bigger than 2/3?')).toContain('$0.7$ is $7$ tenths');
    expect(await send('0.7 is bigger')).toMatch(/^Yes, that's right — well done!/);
    expect(await send('What is 0.5 + 0.25?')).toContain('the same number of decimal places');
    expect(await send('0.50 + 0.25')).toMatch(/^Yes, that's the next step!/);
    expect(await send('0.75')).toMatch(/^Yes, that's right — well done!/);
    expect(await send('Solve 2.5x + 1 = 6')).toContain('**Hint:** subtract $1$ from both sides');
    const step = await send('2.5x = 5');
    expect(step).toMatch(/^Yes, that's the next step!/);
    expect(step).toContain('**Step 2 of 3**');
  });

  it('stamps a reply strictly after its question, even within the same millisecond', async () => {
    const api = h.as(await h.user());
    h.freezeClock();
    try {
      const sent = await api.post(`${C}/send`, say('What is a prime number?'));
      expect(sent.status).toBe(200);
      const { messages } = (await api.get(`${C}/sessions/${sent.body.sessionId}`)).body;
      expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
      const [asked, replied] = messages.map((m: { createdAt: string }) => Date.parse(m.createdAt));
      expect(replied - asked).toBe(1);
    } finally {
      h.resetClock();
    }
  });

  it('titles sessions from the first message, at most 60 characters', async () => {
    const api = h.as(await h.user());
    const long = 'Could you please explain how the water cycle works, step by step, with examples?';
    const { sessionId } = (await api.post(`${C}/send`, say(long))).body;
    const { title } = (await api.get(`${C}/sessions/${sessionId}`)).body;
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title.endsWith('…')).toBe(true);
  });

  it('validates the send body (422)', async () => {
    const api = h.as(sam);
    const bad = [
      {},
      { messages: [] },
      say('   '),
      say('x'.repeat(4001)),
      { messages: [{ role: 'assistant', content: 'hi' }] },
      { messages: [{ role: 'system', content: 'hi' }] },
      { ...say('hi'), extra: 1 },
      { ...say('hi'), dashboardData: 'tokens' },
      say('nul \u0000 byte'),
    ];
    for (const body of bad) {
      const reply = await api.post(`${C}/send`, body);
      expect(reply.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(isFastApiError(reply.body)).toBe(true);
    }
    const tooLong = await api.post(`${C}/send`, say('x'.repeat(4001)));
    expect(tooLong.body.detail[0]).toMatchObject({
      loc: ['body', 'messages', 0, 'content'],
      msg: 'Message can be up to 4000 characters only.',
    });
    expect((await api.post(`${C}/send`, say(` ${'x'.repeat(4000)} `))).status).toBe(200);
    expect((await h.request('POST', `${C}/send`, say('hi'))).status).toBe(401);
  });

  it('lists, pages, renames, archives, unarchives and deletes sessions', async () => {
    const api = h.as(await h.user());
    const ids: string[] = [];
    for (const text of ['first', 'second', 'third'])
      ids.push((await api.post(`${C}/send`, say(text))).body.sessionId);

    const page1 = (await api.get(`${C}/sessions?limit=2&page=1`)).body;
    expect(page1).toMatchObject({ total: 3, page: 1, limit: 2, hasMore: true });
    expect(page1.sessions.map((s: { title: string }) => s.title)).toEqual(['third', 'second']);
    expect((await api.get(`${C}/sessions?limit=2&page=2`)).body.hasMore).toBe(false);
    expect((await api.get(`${C}/sessions?limit=0`)).status).toBe(422);
    expect((await api.get(`${C}/sessions?page=abc`)).status).toBe(422);

    const renamed = await api.patch(`${C}/sessions/${ids[0]}/title`, { title: '  Algebra  ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: ids[0], title: 'Algebra', messageCount: 2 });
    for (const title of ['', '   ', 'x'.repeat(101)])
      expect((await api.patch(`${C}/sessions/${ids[0]}/title`, { title })).status).toBe(422);
    expect(
      (await api.patch(`${C}/sessions/${ids[0]}/title`, { title: 'x'.repeat(100) })).status,
    ).toBe(200);

    const archived = await api.patch(`${C}/sessions/${ids[1]}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.id).toBe(ids[1]);
    expect((await api.get(`${C}/sessions`)).body.total).toBe(2);
    expect((await api.get(`${C}/archives`)).body).toMatchObject({ total: 1, limit: 50 });
    expect((await api.delete(`${C}/sessions/${ids[0]}/archive`)).status).toBe(404); // not archived
    expect((await api.patch(`${C}/sessions/${ids[1]}/unarchive`)).status).toBe(200);
    expect((await api.get(`${C}/archives`)).body.total).toBe(0);

    await api.patch(`${C}/sessions/${ids[1]}/archive`);
    const removed = await api.delete(`${C}/sessions/${ids[1]}/archive`);
    expect(removed.status).toBe(200);
    expect(typeof removed.body.message).toBe('string');
    expect((await api.get(`${C}/sessions/${ids[1]}`)).status).toBe(404);

    expect((await api.delete(`${C}/sessions/${ids[2]}`)).status).toBe(200);
    expect((await api.delete(`${C}/sessions/${ids[2]}`)).status).toBe(404);

    const all = await api.patch(`${C}/archives`);
    expect(all.status).toBe(200);
    expect((await api.get(`${C}/sessions`)).body.total).toBe(0);
    expect((await api.get(`${C}/archives`)).body.total).toBe(1);
    await api.post(`${C}/send`, say('fresh'));
    expect((await api.delete(`${C}/all`)).status).toBe(200);
    expect((await api.get(`${C}/sessions`)).body.total).toBe(0);
    expect((await api.get(`${C}/archives`)).body.total).toBe(0);
  });

  it('searches titles and message text, case-insensitively, safe for any input', async () => {
    const user = await h.user();
    const api = h.as(user);
    const a = (await api.post(`${C}/send`, say('Photosynthesis in PLANTS'))).body.sessionId;
    const b = (await api.post(`${C}/send`, say('history homework'))).body.sessionId;
    await api.post(`${C}/send`, { ...say("the 100% of it_all, O'Brien said \\ ok"), sessionId: b });
    await api.patch(`${C}/sessions/${b}/title`, { title: 'World War Two' });

    const ids = (q: string) => h.searchIds(user, q);
    expect(await ids('plants')).toEqual([a]);
    expect(await ids('WORLD war')).toEqual([b]);
    expect(await ids('homework')).toEqual([b]); // message text, not the title
    expect(await ids('100%')).toEqual([b]);
    expect(await ids('it_all')).toEqual([b]);
    expect(await ids("O'Brien")).toEqual([b]);
    expect(await ids('\\ ok')).toEqual([b]);
    // `%` and `_` are characters here, not patterns (the offline coach's replies have neither).
    expect(await ids('%')).toEqual([b]);
    expect(await ids('_')).toEqual([b]);
    expect(await ids('_ALL')).toEqual([b]);
    expect(await ids('no such words anywhere')).toEqual([]);
    expect(await ids('   ')).toEqual([]);
    const paged = (await api.get(`${C}/search?search=o&limit=1&page=1`)).body;
    expect(paged).toMatchObject({ limit: 1, page: 1, total: 2, hasMore: true });
    expect((await api.get(`${C}/search`)).status).toBe(422);
    // PostgreSQL text holds no NUL: refused at the door, not a 500 from the database.
    const nul = await api.get(`${C}/search?search=a%00b`);
    expect(nul.status).toBe(422);
    expect(nul.body.detail).toEqual([
      { loc: ['query', 'search'], msg: 'Null characters are not allowed', type: 'value_error' },
    ]);
    // Another user's sessions never match.
    expect((await h.as(sam).get(`${C}/search?search=plants`)).body.total).toBe(0);
  });

  it('keeps search in step with new messages, replies, renames and archiving', async () => {
    const user = await h.user();
    const api = h.as(user);
    const ids = (q: string) => h.searchIds(user, q);
    const a = (await api.post(`${C}/send`, say('Volcanoes erupt'))).body.sessionId;
    const b = (await api.post(`${C}/send`, say('Gamma rays'))).body.sessionId;
    expect(await ids('volcanoes')).toEqual([a]);
    // The offline coach's reply, stored after the question, is found too; newest activity first.
    expect(await ids('FULL TUTOR')).toEqual([b, a]);
    // A later message in an existing session; it moves that session to the front.
    await api.post(`${C}/send`, say('and what about Magma chambers?', a));
    expect(await ids('magma chamber')).toEqual([a]);
    expect(await ids('full tutor')).toEqual([a, b]);

    // A renamed title is found, and the title it replaced no longer is.
    await api.patch(`${C}/sessions/${a}/title`, { title: 'Quokka Island' });
    expect(await ids('quokka')).toEqual([a]);
    expect(await ids('KK')).toEqual([a]); // shorter than a trigram
    await api.patch(`${C}/sessions/${a}/title`, { title: 'Lava lamps' });
    expect(await ids('quokka')).toEqual([]);
    expect(await ids('lava LAMPS')).toEqual([a]);
    expect(await ids('volcanoes erupt')).toEqual([a]); // the first message, still there
    expect(await ids('magma')).toEqual([a]);
    // A match never spans the title and a message, or two messages.
    expect(await ids('lamps volcanoes')).toEqual([]);
    expect(await ids('lampsvolcanoes')).toEqual([]);
    expect(await ids('chambers? no')).toEqual([]);
    // Control characters are text like any other, the one between pieces included.
    await api.post(`${C}/send`, say('one\u0001two', b));
    expect(await ids('ONE\u0001TWO')).toEqual([b]);
    expect(await ids('\u0001')).toEqual([b]);
    expect(await ids('rays\u0001')).toEqual([]);

    // Issue 25 item 6: an archived chat is still found, marked archived; unarchived, it is not.
    const hits = async (q: string) =>
      (await api.get(`${C}/search?search=${encodeURIComponent(q)}`)).body.sessions.map(
        (s: { id: string; archived: boolean }) => [s.id, s.archived],
      );
    expect(await hits('magma')).toEqual([[a, false]]);
    await api.patch(`${C}/sessions/${a}/archive`);
    expect(await hits('magma')).toEqual([[a, true]]);
    expect(await hits('full tutor')).toEqual([
      [b, false],
      [a, true],
    ]);
    await api.patch(`${C}/sessions/${a}/unarchive`);
    expect(await hits('magma')).toEqual([[a, false]]);
    await api.delete(`${C}/sessions/${a}`);
    expect(await ids('magma')).toEqual([]);
  });

  it('counts search matches up to the limit, past the page asked for, with hasMore exact', async () => {
    const user = await h.user();
    const api = h.as(user);
    const n = SEARCH_COUNT_LIMIT + 30;
    // Written straight in the database, then indexed for search as the service indexes them.
    await h.database.db.execute(sql`
      insert into chat_sessions (user_id, title, created_at, last_message_at)
      select ${user.id}, 'Counted #' || g,
             now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
      from generate_series(1, ${n}) g`);
    await reindexSessions(h.database.db, sql`s.user_id = ${user.id}`);
    const page = async (p: number) =>
      (await api.get(`${C}/search?search=COUNTED&limit=20&page=${p}`)).body;
    expect(await page(1)).toMatchObject({ total: SEARCH_COUNT_LIMIT, hasMore: true });
    expect((await page(1)).sessions[0].title).toBe('Counted #1');
    const last = Math.ceil(n / 20);
    expect(await page(last - 1)).toMatchObject({ total: (last - 1) * 20 + 1, hasMore: true });
    const end = await page(last);
    expect(end).toMatchObject({ total: n, hasMore: false });
    expect(end.sessions.at(-1).title).toBe(`Counted #${n}`);
    expect(await page(last + 1)).toMatchObject({ sessions: [], total: n, hasMore: false });
  });

  it('awards +50 for the 10th message, once', async () => {
    const user = await h.user();
    const api = h.as(user);
    let sessionId: string | undefined;
    for (let i = 1; i <= 11; i++) {
      sessionId = (await api.post(`${C}/send`, say(`question ${i}`, sessionId))).body.sessionId;
      const { points } = (await api.get('/api/v1/web3-tokens/finu-balance')).body;
      expect(points, `after message ${i}`).toBe(i >= 10 ? 50 : 0);
    }
  });

  it('rate-limits sends per user (429 with Retry-After)', async () => {
    const user = await h.user();
    const api = h.as(user);
    for (let i = 0; i < 12; i++)
      expect((await api.post(`${C}/send`, say(`q${i}`))).status).toBe(200);
    // Deleting every chat gives no sends back: they are counted, not read from the messages.
    expect((await api.delete(`${C}/all`)).status).toBe(200);
    const limited = await api.post(`${C}/send`, say('one more'));
    expect(limited.status).toBe(429);
    expect(isFastApiError(limited.body)).toBe(true);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await h.as(sam).post(`${C}/send`, say('others still can'))).status).toBe(200);
    h.advanceClock(61_000);
    try {
      expect((await api.post(`${C}/send`, say('after a minute'))).status).toBe(200);
    } finally {
      h.resetClock();
    }
  });

  it('caps the replies one student has being written at once (429), not other students’', async () => {
    const api = h.as(await h.user());
    // Questions the offline coach works on for its whole budget: four at once, three are written.
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => api.post(`${C}/send`, say(`Solve ${SLOW_EQUATION}`))),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 429]);
    const refused = replies.find((r) => r.status === 429)!;
    expect(refused.body).toEqual({ detail: STREAM_CAP_MESSAGE });
    expect(refused.headers.get('retry-after')).toBeTruthy();
    // Their places are free again once the replies are done.
    expect((await api.post(`${C}/send`, say('2 + 2?'))).status).toBe(200);
  });

  it("never shows or touches another user's session (404)", async () => {
    const owner = h.as(await h.user());
    const id = (await owner.post(`${C}/send`, say('my secret homework'))).body.sessionId;
    const api = h.as(sam);
    expect((await api.get(`${C}/sessions/${id}`)).status).toBe(404);
    expect((await api.patch(`${C}/sessions/${id}/title`, { title: 'mine' })).status).toBe(404);
    expect((await api.patch(`${C}/sessions/${id}/archive`)).status).toBe(404);
    expect((await api.patch(`${C}/sessions/${id}/unarchive`)).status).toBe(404);
    expect((await api.delete(`${C}/sessions/${id}`)).status).toBe(404);
    expect((await api.delete(`${C}/sessions/${id}/archive`)).status).toBe(404);
    expect((await api.post(`${C}/send`, say('hijack', id))).status).toBe(404);
    expect((await api.post(`${C}/send/stream`, say('hijack', id))).status).toBe(404);
    expect((await api.post(`${C}/send`, say('hijack', 'not-a-uuid'))).status).toBe(404);
    expect((await api.get(`${C}/sessions/not-a-uuid`)).status).toBe(404);
    // Nothing of the refused sends reached the owner's session, its search included.
    expect((await owner.get(`${C}/search?search=hijack`)).body.sessions).toEqual([]);
    await api.delete(`${C}/all`);
    await api.patch(`${C}/archives`);
    const still = (await owner.get(`${C}/sessions/${id}`)).body;
    expect(still).toMatchObject({ title: 'my secret homework', messageCount: 2 });
  });

  it('publishes every learning route in the OpenAPI document', async () => {
    const doc = (await h.request('GET', '/api/v1/openapi.json')).body;
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/api/v1/chat/send/stream',
      '/api/v1/chat/search',
      '/api/v1/vector/search-user-data',
      '/api/v1/goal/{id}/progress',
      '/api/v1/web3-tokens/convert-points-to-finu',
    ])
      expect(paths, path).toContain(path);
    expect(Object.keys(doc.paths['/api/v1/goal/{id}'])).toEqual(
      expect.arrayContaining(['put', 'patch', 'delete']),
    );
  });
});
