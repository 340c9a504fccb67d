/**
 * Back-pressure on the tutor's replies (server/http/stream-gate.ts), over HTTP: with one reply slot and
 * one place in line, a second send waits and is told so at once (a `status` event), starts only when
 * the first reply has ended, and a third is refused with 503 {detail} and Retry-After before anything
 * is stored. A student who leaves the line gives the place up.
 */
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { BUSY_DETAIL, BUSY_STATUS } from '../../../server/http/stream-gate';
import type { HarnessOptions, SseEvent, TestUser } from '../harness';
import { describeServer, isFastApiError, parseSse, useTestServerWithModel } from '../harness';

const options: HarnessOptions = { chat: { maxStreams: 1, streamQueue: 1 } };
const { fake, h } = useTestServerWithModel(options);
const C = '/api/v1/chat';

const say = (content: string) => ({ messages: [{ role: 'user', content }] });

/** A stream opened and read event by event. */
async function open(user: TestUser, content: string, signal?: AbortSignal) {
  const response = await fetch(h.url + `${C}/send/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(say(content)),
    signal,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const seen: SseEvent[] = [];
  return {
    status: response.status,
    /** The next event (after those already read). */
    async next(): Promise<SseEvent> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end !== -1) {
          const [event] = parseSse(buffer.slice(0, end + 2));
          buffer = buffer.slice(end + 2);
          seen.push(event!);
          return event!;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended; events so far: ${JSON.stringify(seen)}`);
        buffer += decoder.decode(value, { stream: true });
      }
    },
    /** Every event of the stream, those read first. */
    async all(): Promise<SseEvent[]> {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
      }
      return [...seen, ...parseSse(buffer)];
    },
  };
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const storedBy = (user: TestUser) =>
  h.sql<{ role: string; content: string }>(
    sql`select role, content from chat_messages where user_id = ${user.id} order by created_at, id`,
  );

describeServer('a reply slot taken, a line of one', () => {
  it('lets the next send wait with a status, and refuses the one after with 503 and Retry-After', async () => {
    const [first, second, third] = [await h.user(), await h.user(), await h.user()];
    // The first reply takes its time before its first words.
    fake.script(
      { kind: 'chunks', chunks: ['First', ' reply.'], startDelayMs: 2000 },
      { kind: 'chunks', chunks: ['Second', ' reply.'] },
    );
    const before = fake.completions().length;
    const a = await open(first, 'What is a prime number?');
    expect(a.status).toBe(200);
    await until(() => fake.completions().length > before, 'the first reply reaching the model');

    const b = await open(second, 'What is a factor?');
    expect(b.status).toBe(200);
    // Told at once that it waits, before any word of the reply.
    expect(await b.next()).toEqual({ event: 'status', data: BUSY_STATUS });

    // Every slot and the line are taken: refused, and nothing of it is stored.
    const c = await h.as(third).post(`${C}/send/stream`, say('What is a multiple?'));
    expect(c.status).toBe(503);
    expect(c.body).toEqual({ detail: BUSY_DETAIL });
    expect(isFastApiError(c.body)).toBe(true);
    expect(Number(c.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await storedBy(third)).toEqual([]);
    // The plain route shares the gate.
    const plain = await h.as(third).post(`${C}/send`, say('What is a multiple?'));
    expect(plain.status).toBe(503);
    expect(plain.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await storedBy(third)).toEqual([]);

    const aEvents = await a.all();
    expect(aEvents.map((e) => e.event)).toEqual(['chunk', 'chunk', 'done']);
    const bEvents = await b.all();
    expect(bEvents.map((e) => e.event)).toEqual(['status', 'chunk', 'chunk', 'done']);
    expect(bEvents.at(-1)!.data.response).toBe('Second reply.');
    // The waiting reply went to the model only once the first had ended.
    const [aAsked, bAsked] = fake.completions().slice(before);
    expect(bAsked!.receivedAt).toBeGreaterThanOrEqual(aAsked!.answeredAt);
    expect(await storedBy(second)).toEqual([
      { role: 'user', content: 'What is a factor?' },
      { role: 'assistant', content: 'Second reply.' },
    ]);

    // All slots free again: the next send starts at once, with no status.
    const again = await open(third, 'What is a multiple?');
    expect((await again.all()).map((e) => e.event)).toEqual([
      'chunk',
      'chunk',
      'chunk',
      'chunk',
      'done',
    ]);
  });

  it('gives a place in line back when its student leaves', async () => {
    const [first, second, third] = [await h.user(), await h.user(), await h.user()];
    fake.script(
      { kind: 'chunks', chunks: ['Slow', ' reply.'], startDelayMs: 2000 },
      { kind: 'chunks', chunks: ['Third', ' reply.'] },
    );
    const before = fake.completions().length;
    const a = await open(first, 'Why is the sky blue?');
    await until(() => fake.completions().length > before, 'the first reply reaching the model');

    const leaving = new AbortController();
    const b = await open(second, 'Why is grass green?', leaving.signal);
    expect(await b.next()).toEqual({ event: 'status', data: BUSY_STATUS });
    leaving.abort();

    // The place is free again: the third send waits instead of being refused.
    let c: Awaited<ReturnType<typeof open>> | undefined;
    for (let tries = 0; tries < 50 && !c; tries++) {
      const attempt = await open(third, 'Why is snow white?');
      if (attempt.status === 200) c = attempt;
      else await new Promise((r) => setTimeout(r, 20));
    }
    expect(c).toBeDefined();
    expect(await c!.next()).toEqual({ event: 'status', data: BUSY_STATUS });
    expect((await a.all()).at(-1)!.event).toBe('done');
    const cEvents = await c!.all();
    expect(cEvents.at(-1)!.data.response).toBe('Third reply.');
    // The student who left was never answered: the model was asked twice, not three times.
    expect(fake.completions().length - before).toBe(2);
  });
});
