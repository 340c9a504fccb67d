/**
 * An event stream's `pace` (server/http/sse.ts), write by write: through `app.request()` each write
 * is one chunk of the body, so the test sees exactly which events went out together. Here `chunk`
 * events wait up to a second after the last write of their kind; everything else goes at once.
 */
import { Hono } from 'hono';
import { expect, it } from 'vitest';

import { eventStream } from '../../../server/http/sse';

const PACE_MS = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('holds paced events for one write, never the first, and lets the rest take them out', async () => {
  let readThird!: () => void;
  const thirdRead = new Promise<void>((r) => (readThird = r));
  const app = new Hono();
  app.get('/events', (c) =>
    eventStream(
      c,
      async (events) => {
        events.send('status', 'wait');
        await sleep(5);
        // The first paced event: nothing of its kind was written, so it goes at once, a status
        // just before or not.
        events.send('chunk', 'a');
        await sleep(5);
        events.send('chunk', 'b');
        await sleep(5);
        events.send('chunk', 'c');
        await thirdRead;
        // Held again (its kind was just written), until the end takes it out at once.
        events.send('chunk', 'd');
        events.send('done', 'end');
      },
      () => {},
      (event) => (event === 'chunk' ? PACE_MS : 0),
    ),
  );
  const response = await app.request('/events');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const next = async () => {
    const { value, done } = await reader.read();
    return { text: done ? null : decoder.decode(value), at: performance.now() };
  };

  expect((await next()).text).toBe('event: status\ndata: wait\n\n');
  const second = await next();
  expect(second.text).toBe('event: chunk\ndata: a\n\n');
  const third = await next();
  expect(third.text).toBe('event: chunk\ndata: b\n\nevent: chunk\ndata: c\n\n');
  // Written by the held timer, a pace after `a` (less what this reader was late reading `a`).
  expect(third.at - second.at).toBeGreaterThan(PACE_MS / 2);
  readThird();
  const sent = performance.now();
  const fourth = await next();
  expect(fourth.text).toBe('event: chunk\ndata: d\n\nevent: done\ndata: end\n\n');
  expect(fourth.at - sent).toBeLessThan(PACE_MS / 2);
  expect((await next()).text).toBeNull();
});
