/**
 * A reply's text paced while the process writes many replies at once (config.ts `ReplyPacing`,
 * http/sse.ts `pace`), here past one reply, a write every 250 ms. The events are the same either way:
 * a chunk event a piece of the model's, in order. One reply alone goes out a write a piece, as the
 * model sends it. Two at once go out in steps: the first words alone and at once, what the model sent
 * meanwhile in one write, no two writes closer than the pace, and the end.
 */
import { expect, it } from 'vitest';

import type { HarnessOptions, TestUser } from '../harness';
import { describeServer, timedSse, useTestServerWithModel } from '../harness';

const STEP_MS = 250;
const options: HarnessOptions = { chat: { pacing: { above: 1, everyMs: STEP_MS } } };
const { fake, h } = useTestServerWithModel(options);

/** 24 pieces 25 ms apart, after 300 ms: both replies of a test are being written by then. */
const PIECES = Array.from({ length: 24 }, (_, i) => `piece ${i}; `);
const reply = { kind: 'chunks', chunks: PIECES, delayMs: 25, startDelayMs: 300 } as const;

/** A streamed send read to its end, each event with the moment its bytes arrived. */
async function timedStream(user: TestUser, content: string) {
  const response = await fetch(`${h.url}/api/v1/chat/send/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content }] }),
  });
  expect(response.status).toBe(200);
  const events = await timedSse(response);
  const chunks = events.filter((e) => e.event === 'chunk');
  const done = events.find((e) => e.event === 'done');
  // The reads that brought text: a write of the server's arrives in one read.
  const reads = [...new Set(chunks.map((e) => e.at))];
  return {
    texts: chunks.map((e) => e.data as string),
    firstRead: chunks.filter((e) => e.at === reads[0]).map((e) => e.data as string),
    reads: reads.length,
    response: (done?.data as { response: string } | undefined)?.response,
  };
}

describeServer('a reply paced while many are written', () => {
  it('writes each piece as the model sends it while one reply is written', async () => {
    fake.script(reply);
    const alone = await timedStream(await h.user(), 'What is a fraction?');
    expect(alone.texts).toEqual(PIECES);
    expect(alone.response).toBe(PIECES.join(''));
    // Pieces 25 ms apart, a write each (a client late to read may take two in one read).
    expect(alone.reads).toBeGreaterThan(8);
  });

  it('writes two replies at once in steps: first words at once, then the pace', async () => {
    fake.script(reply, reply);
    const [first, second] = [await h.user(), await h.user()];
    const replies = await Promise.all([
      timedStream(first, 'What is a fraction?'),
      timedStream(second, 'What is a decimal?'),
    ]);
    for (const paced of replies) {
      // The same events, in order, to the end.
      expect(paced.texts).toEqual(PIECES);
      expect(paced.response).toBe(PIECES.join(''));
      // The first words alone and at once; then 575 ms of pieces in steps of 250 ms as they come
      // (one in between at least, not all held to the end), not a write a piece (a client late to
      // read may take two writes in one read, never one in two).
      expect(paced.firstRead).toEqual([PIECES[0]]);
      expect(paced.reads).toBeGreaterThanOrEqual(3);
      expect(paced.reads).toBeLessThanOrEqual(8);
    }
  });
});
