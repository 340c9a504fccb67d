/**
 * The tutor over a model: `/send/stream` and `/send` against a loopback server that speaks the OpenAI
 * streaming wire format (fake-openai.ts) — chunks, an upstream 500, a stall, a broken stream, a client
 * that hangs up — and the safety checks (local patterns and a moderation endpoint).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';

import { CHUNK_CHARS } from '../../../server/chat/service';
import { FakeOpenAI } from '../fake-openai';
import type { HarnessOptions, TestUser } from '../harness';
import { describeServer, parseSse, useTestServer } from '../harness';
import { chunkTexts, packedChunks } from './chunks';

const fake = new FakeOpenAI();
// The search filer files what waits 150 ms after the last reply is stored (never while one is
// being written), so that a test sees it do so.
const options: HarnessOptions = {
  llm: {},
  chat: { searchFiling: { quietMs: 150, maxWaitMs: 60_000 } },
};
beforeAll(async () => {
  await fake.start();
  options.llm = {
    baseUrl: fake.url,
    model: 'tutor-test',
    apiKey: 'sk-test',
    moderationUrl: `${fake.url}/moderations`,
    // Long enough that a loaded runner never stalls a healthy stream between two chunks.
    stallMs: 1500,
    timeoutMs: 10_000,
  };
});
afterAll(() => fake.close());
const h = useTestServer(options);
const C = '/api/v1/chat';

const say = (content: string, sessionId?: string) => ({
  messages: [{ role: 'user', content }],
  ...(sessionId ? { sessionId } : {}),
});

async function stream(user: TestUser, body: unknown, signal?: AbortSignal) {
  const response = await fetch(h.url + `${C}/send/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  return { status: response.status, events: parseSse(await response.text()) };
}

/** Starts a streamed send of `content` and reads its first chunk; answers the reader of the rest. */
async function streamStarted(user: TestUser, content: string) {
  const response = await fetch(h.url + `${C}/send/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(say(content)),
  });
  const reader = response.body!.getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: chunk');
  return reader;
}

/** Waits (up to 5 s) until the tutor has remembered `question`: it does so after a stream ends. */
async function remembered(user: TestUser, question: string) {
  const end = Date.now() + 5000;
  for (;;) {
    const rows = await h.sql(
      sql`select 1 from learning_memories
          where user_id = ${user.id} and text = ${`Asked Ayah: ${question}`}`,
    );
    if (rows.length > 0) return;
    if (Date.now() > end) throw new Error(`the tutor never remembered "${question}"`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function messagesOf(user: TestUser) {
  return h.sql<{ role: string; content: string }>(
    sql`select role, content from chat_messages where user_id = ${user.id} order by created_at, id`,
  );
}

describeServer('the tutor over an OpenAI-compatible endpoint', () => {
  it('streams chunks as the model writes them, then done, and stores the reply', async () => {
    const user = await h.user('Lina');
    await h
      .as(user)
      .post('/api/v1/goal', { subject: 'science', goal_type: 'topics_learned', target_value: 3 });
    fake.script({ kind: 'chunks', chunks: ['Let', "'s think", ' about $x^2$.'] });
    const { status, events } = await stream(user, {
      ...say('Explain squares'),
      dashboardData: { tokens: 7 },
    });
    expect(status).toBe(200);
    expect(events.map((e) => e.event)).toEqual(['chunk', 'chunk', 'chunk', 'done']);
    expect(events.slice(0, 3).map((e) => e.data)).toEqual(['Let', "'s think", ' about $x^2$.']);
    const done = events[3]!.data;
    expect(done.response).toBe("Let's think about $x^2$.");
    expect(await messagesOf(user)).toEqual([
      { role: 'user', content: 'Explain squares' },
      { role: 'assistant', content: "Let's think about $x^2$." },
    ]);

    // Sends are traced only with AYAH_TRACE_SENDS=1 (send-trace.test.ts).
    expect(h.logs.filter((l) => l.text.startsWith('[trace]'))).toEqual([]);

    const request = fake.completions().at(-1)!;
    expect(request.authorization).toBe('Bearer sk-test');
    expect(request.body.model).toBe('tutor-test');
    expect(request.body.stream).toBe(true);
    const [system] = request.body.messages as { role: string; content: string }[];
    expect(system!.role).toBe('system');
    expect(system!.content).toContain('middle-school');
    expect(system!.content).toContain('hints');
    expect(system!.content).toContain('LaTeX');
    expect(system!.content).toContain('Science: 0 of 3 topics');
    expect(system!.content).toContain('"tokens":7');
    expect(system!.content).toContain("The student's name: Lina");

    // The conversation is remembered: the next turn's prompt recalls it. Each turn is asked once
    // the one before it is remembered; what its prompt recalled is answered.
    const recalledAfter = async (before: string, question: string) => {
      await remembered(user, before);
      fake.script({ kind: 'chunks', chunks: ['Sure.'] });
      await stream(user, say(question, done.sessionId));
      const [prompt] = fake.completions().at(-1)!.body.messages as { content: string }[];
      return prompt!.content.match(/Asked Ayah: [^\n]*/g) ?? [];
    };
    expect(await recalledAfter('Explain squares', 'More about squares please')).toContain(
      'Asked Ayah: Explain squares',
    );
    // A question matching no memory recalls the two most recent.
    expect(await recalledAfter('More about squares please', 'Thanks a lot')).toEqual(
      expect.arrayContaining([
        'Asked Ayah: Explain squares',
        'Asked Ayah: More about squares please',
      ]),
    );
    // So does one with no word to match at all.
    const wordless = await recalledAfter('Thanks a lot', '🙂?!');
    expect(wordless).toEqual(
      expect.arrayContaining(['Asked Ayah: Thanks a lot', 'Asked Ayah: More about squares please']),
    );
    expect(wordless).not.toContain('Asked Ayah: Explain squares');
  });

  it('turns an upstream 500 into an error event, keeping the question and no reply', async () => {
    const user = await h.user();
    fake.script({ kind: 'error', status: 500 });
    const { status, events } = await stream(user, say('What is a prime number?'));
    expect(status).toBe(200);
    expect(events).toEqual([
      { event: 'error', data: { detail: 'Ayah could not answer right now. Please try again.' } },
    ]);
    expect(await messagesOf(user)).toEqual([{ role: 'user', content: 'What is a prime number?' }]);
    expect(h.logs.some((l) => l.level === 'warn' && l.text.includes('upstream'))).toBe(true);

    fake.script({ kind: 'error', status: 500 });
    const plain = await h.as(user).post(`${C}/send`, say('Again?'));
    expect(plain.status).toBe(502);
    expect(plain.body).toEqual({ detail: 'Ayah could not answer right now. Please try again.' });
  });

  it('gives up on a stalled model (error event) and cancels the upstream request', async () => {
    const user = await h.user();
    const abortedBefore = fake.aborted;
    fake.script({ kind: 'stall', chunks: ['Half an ans'] });
    const { events } = await stream(user, say('Tell me about volcanoes'));
    expect(events.map((e) => e.event)).toEqual(['chunk', 'error']);
    expect(events[1]!.data).toEqual({ detail: 'Ayah took too long to answer. Please try again.' });
    expect((await messagesOf(user)).map((m) => m.role)).toEqual(['user']);
    await fake.abortedMoreThan(abortedBefore);

    fake.script({ kind: 'stall' });
    const plain = await h.as(user).post(`${C}/send`, say('Still there?'));
    expect(plain.status).toBe(504);
  });

  it('stores nothing half-written when the stream breaks midway; the next send retries', async () => {
    const user = await h.user();
    fake.script({ kind: 'break', chunks: ['The French Revolution began in'] });
    const first = await stream(user, say('When did the French Revolution start?'));
    expect(first.events.at(-1)!.event).toBe('error');
    expect((await messagesOf(user)).map((m) => m.role)).toEqual(['user']);
    const sessionId = (await h.as(user).get(`${C}/sessions`)).body.sessions[0].id;

    fake.script({ kind: 'chunks', chunks: ['In 1789.'] });
    const retry = await stream(user, {
      messages: [
        { role: 'user', content: 'When did the French Revolution start?' },
        { role: 'user', content: 'When did the French Revolution start?' },
      ],
      sessionId,
    });
    expect(retry.events.at(-1)).toMatchObject({
      event: 'done',
      data: { response: 'In 1789.', sessionId },
    });
    expect((await messagesOf(user)).map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
  });

  it('finds messages while they wait for the search chunks, and files them once replies end', async () => {
    const user = await h.user();
    const api = h.as(user);
    const found = (needle: string) => h.searchIds(user, needle);
    const chunks = (id: string) =>
      h.sql<{ seq: number; text: string }>(
        sql`select seq, text from chat_search_chunks where session_id = ${id} order by seq`,
      );
    const pending = async (id: string) =>
      (
        await h.sql<{ p: string[] | null }>(
          sql`select search_pending as p from chat_sessions where id = ${id}`,
        )
      )[0]!.p;
    const filed = (id: string) =>
      vi.waitFor(async () => expect(await pending(id)).toBeNull(), { timeout: 5_000 });

    // Slow enough that the checks below run while the reply is still being written.
    fake.script({ kind: 'chunks', chunks: ['Lava', ' is', ' molten', ' rock.'], delayMs: 400 });
    const reader = await streamStarted(user, 'What makes a\nVOLCANO  erupt?');
    const { id } = (await api.get(`${C}/sessions`)).body.sessions[0] as { id: string };
    // Longer than the filer's quiet spell since the question was stored: it still waits, as a
    // reply is being written. The question is found, as is the title made from it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sep = '\u0001';
    expect(await chunks(id)).toEqual([]);
    expect(await pending(id)).toEqual([`${sep}what makes a\nvolcano  erupt?`]);
    expect(await found('volcano  erupt')).toEqual([id]);
    expect(await found('a volcano erupt')).toEqual([id]); // the title: its spaces collapsed
    expect(await found('VO')).toEqual([id]);
    expect(await found('lava')).toEqual([]);
    while (!(await reader.read()).done);
    expect(await found('molten rock')).toEqual([id]);

    // Filed once the reply is stored: the title, then the question and the reply, in order.
    await filed(id);
    expect(await chunks(id)).toEqual([
      { seq: 0, text: 'what makes a volcano erupt?' },
      { seq: 1, text: `${sep}what makes a\nvolcano  erupt?${sep}lava is molten rock.` },
    ]);
    expect(await found('molten rock')).toEqual([id]);
    expect(await found('volcano  erupt')).toEqual([id]);
    expect(await found(`erupt?${sep}lava`)).toEqual([]); // never across two messages

    // A question whose reply failed is found, and filed in its turn.
    fake.script({ kind: 'error', status: 500 });
    expect((await stream(user, say('And GEYSERS?', id))).events.at(-1)!.event).toBe('error');
    expect(await found('geysers')).toEqual([id]);
    fake.script({ kind: 'chunks', chunks: ['Hot', ' water.'] });
    expect((await stream(user, say('Why do they spout?', id))).events.at(-1)!.event).toBe('done');
    await filed(id);
    expect((await chunks(id))[1]!.text).toBe(
      `${sep}what makes a\nvolcano  erupt?${sep}lava is molten rock.` +
        `${sep}and geysers?${sep}why do they spout?${sep}hot water.`,
    );
    expect(await found('geysers')).toEqual([id]);
    expect(await found(`geysers?${sep}why`)).toEqual([]); // never across two messages
  });

  it('files a question whose reply failed as appending each message in turn would', async () => {
    const user = await h.user();
    const long = (word: string) => `${word} `.repeat(CHUNK_CHARS).slice(0, 0.6 * CHUNK_CHARS);
    fake.script({ kind: 'chunks', chunks: ['Ok.'] });
    const id = (await stream(user, say('A short start'))).events.at(-1)!.data.sessionId as string;
    fake.script({ kind: 'error', status: 500 });
    expect((await stream(user, say(long('tide'), id))).events.at(-1)!.event).toBe('error');
    fake.script({ kind: 'chunks', chunks: ['Fine.'] });
    expect((await stream(user, say(long('moon'), id))).events.at(-1)!.event).toBe('done');
    expect(await h.searchIds(user, 'tide tide')).toEqual([id]);
    await h.settle();
    // The failed one joins the first chunk, and the next question starts one with its reply
    // (never two long questions in one chunk).
    const chunks = await chunkTexts(h, id);
    expect(chunks).toEqual(await packedChunks(h, id));
    expect(chunks).toHaveLength(2);
    expect(await h.searchIds(user, 'tide tide')).toEqual([id]);
  });

  it('cancels the upstream request when the client disconnects, and stores no reply', async () => {
    const user = await h.user();
    const abortedBefore = fake.aborted;
    fake.script({
      kind: 'chunks',
      chunks: Array.from({ length: 50 }, (_, i) => `w${i} `),
      delayMs: 100,
    });
    const controller = new AbortController();
    const response = await fetch(h.url + `${C}/send/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(say('Write a long story')),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('event: chunk');
    controller.abort();
    await fake.abortedMoreThan(abortedBefore);
    await new Promise((r) => setTimeout(r, 100));
    expect((await messagesOf(user)).map((m) => m.role)).toEqual(['user']);
  });

  it('stores nothing of a reply whose chat was deleted while it was written', async () => {
    const user = await h.user();
    fake.script({ kind: 'chunks', chunks: ['Half', ' of', ' eight', ' is four.'], delayMs: 150 });
    const reader = await streamStarted(user, 'What is half of 8?');
    const [session] = await h.sql<{ id: string }>(
      sql`select id from chat_sessions where user_id = ${user.id}`,
    );
    const id = session!.id;
    expect((await h.as(user).delete(`${C}/sessions/${id}`)).status).toBe(200);
    let rest = '';
    for (let read = await reader.read(); !read.done; read = await reader.read())
      rest += new TextDecoder().decode(read.value);
    // The student still reads the whole reply; the server keeps nothing of it, and fails nothing.
    expect(parseSse(rest).at(-1)).toMatchObject({ event: 'done' });
    expect(await messagesOf(user)).toEqual([]);
    expect(await h.sql(sql`select 1 from chat_search_chunks where session_id = ${id}`)).toEqual([]);
    expect((await h.as(user).post(`${C}/send`, say('Still there?'))).status).toBe(200);
  });

  it('answers a self-harm message kindly with where to find help, without the model', async () => {
    const user = await h.user();
    const calls = fake.completions().length;
    const { events } = await stream(user, say("I don't want to be alive anymore"));
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data.response).toContain('988');
    expect(done.data.response).toContain('trusted adult');
    expect(fake.completions().length).toBe(calls);
    const [event] = await h.sql<{ source: string; direction: string; categories: string[] }>(
      sql`select source, direction, categories from safety_events where user_id = ${user.id}`,
    );
    expect(event).toMatchObject({
      source: 'local',
      direction: 'student',
      categories: ['self_harm'],
    });
  });

  it('asks a student not to share personal data (the local check)', async () => {
    const user = await h.user();
    const reply = await h.as(user).post(`${C}/send`, say('my number is 555-123-4567, call me'));
    expect(reply.status).toBe(200);
    expect(reply.body.response).toContain("please don't share personal information");
    const plainMath = await h.as(user).post(`${C}/send`, say('What is 1234567890 divided by 2?'));
    expect(plainMath.body.response).not.toContain('personal information');
  });

  it('uses the moderation endpoint for the question and for the reply', async () => {
    const user = await h.user();
    fake.flagged = [{ text: 'forbidden topic', category: 'violence' }];
    try {
      const calls = fake.completions().length;
      const asked = await h.as(user).post(`${C}/send`, say('tell me about the forbidden topic'));
      expect(asked.body.response).toContain("That's something I can't help with");
      expect(fake.completions().length).toBe(calls);

      fake.script({ kind: 'chunks', chunks: ['Here is the ', 'forbidden topic', ' in detail'] });
      const { events } = await stream(user, say('Tell me a story'));
      const done = events.at(-1)!;
      expect(done.event).toBe('done');
      expect(done.data.response).toContain("That's something I can't help with");
      const stored = await messagesOf(user);
      expect(stored.at(-1)!.content).toBe(done.data.response);
      const rows = await h.sql<{ source: string; direction: string }>(
        sql`select source, direction from safety_events where user_id = ${user.id} order by created_at`,
      );
      expect(rows).toEqual([
        { source: 'moderation', direction: 'student' },
        { source: 'moderation', direction: 'reply' },
      ]);
    } finally {
      fake.flagged = [];
    }
  });

  it('keeps teaching when the moderation endpoint is down (the local check still runs)', async () => {
    const user = await h.user();
    fake.moderationStatus = 503;
    try {
      fake.script({ kind: 'chunks', chunks: ['Mitochondria make energy.'] });
      const reply = await h.as(user).post(`${C}/send`, say('What do mitochondria do?'));
      expect(reply.body.response).toBe('Mitochondria make energy.');
      expect(h.logs.some((l) => l.text.includes('moderation endpoint failed'))).toBe(true);
      const flagged = await h.as(user).post(`${C}/send`, say('i want to kill myself'));
      expect(flagged.body.response).toContain('988');
    } finally {
      fake.moderationStatus = 200;
    }
  });
});
