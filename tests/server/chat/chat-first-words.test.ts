/**
 * First words first, over HTTP (server/http/stream-gate.ts): a reply that has its first words out
 * reads no more of the model while other replies wait for theirs (here: while any does), at most
 * `holdMs` at a time, and loses nothing by it. One reply streams; a second student asks a model
 * that is slow to begin.
 */
import { expect, it } from 'vitest';

import type { Script } from '../fake-openai';
import type { HarnessOptions, TestUser } from '../harness';
import { describeServer, timedSse, useTestServerWithModel } from '../harness';

/** Holds up to 300 ms at a time; `above: 0`: one reply waiting for its words is a crowd. */
const HOLD_MS = 300;
const options: HarnessOptions = { chat: { firstWords: { above: 0, holdMs: HOLD_MS } } };
const { fake, h } = useTestServerWithModel(options);

/** 20 pieces 25 ms apart: half a second of the model's. */
const PIECES = Array.from({ length: 20 }, (_, i) => `piece ${i}; `);

/** A streamed send; `firstWords` resolves at its first text. Every event's arrival is timed. */
function stream(user: TestUser, content: string) {
  let heard!: () => void;
  const firstWords = new Promise<void>((resolve) => (heard = resolve));
  const read = (async () => {
    const response = await fetch(`${h.url}/api/v1/chat/send/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content }] }),
    });
    expect(response.status).toBe(200);
    const events = await timedSse(response, (event) => event.event === 'chunk' && heard());
    const texts = events
      .filter((e) => e.event === 'chunk')
      .map((e) => ({ text: e.data as string, at: e.at }));
    const done = events.find((e) => e.event === 'done')?.data as { response: string } | undefined;
    return { texts, done };
  })();
  return { firstWords, read };
}

/**
 * One student's reply of PIECES streams; once its first words are out, a second student asks, and
 * the model answers them with `second`. Both read to their end.
 */
async function whileStreaming(second: Script) {
  fake.script({ kind: 'chunks', chunks: PIECES, delayMs: 25 }, second);
  const [first, other] = [await h.user(), await h.user()];
  const streaming = stream(first, 'What is a fraction?');
  await streaming.firstWords;
  const waiting = stream(other, 'What is a decimal?');
  return Promise.all([streaming.read, waiting.read]);
}

describeServer('first words first', () => {
  it('holds a streaming reply while another waits for its first words, and loses nothing', async () => {
    // The second model begins after 1.2 s: the first reply is held in steps of at most 300 ms.
    const [a, b] = await whileStreaming({
      kind: 'chunks',
      chunks: ['At last.'],
      startDelayMs: 1200,
    });

    // Everything, in order, both times.
    expect(a.texts.map((t) => t.text).join('')).toBe(PIECES.join(''));
    expect(a.done?.response).toBe(PIECES.join(''));
    expect(b.done?.response).toBe('At last.');
    // Held: half a second of the model's pieces took at least two holds to come (unheld, they
    // come 25 ms apart), and what the model sent during a hold came together after it (not a
    // piece a hold). A hold ends by its time: the first reply ended before the second spoke.
    const span = a.texts.at(-1)!.at - a.texts[0]!.at;
    expect(span).toBeGreaterThanOrEqual(2 * HOLD_MS - 50);
    const gaps = a.texts.slice(1).map((t, i) => t.at - a.texts[i]!.at);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(HOLD_MS - 50);
    expect(a.texts.at(-1)!.at).toBeLessThan(b.texts[0]!.at);
    // The first hold's pieces (the model sent one every 25 ms) all came as it ended.
    const held = gaps.findIndex((gap) => gap >= HOLD_MS - 50) + 1;
    const came = a.texts.slice(held).filter((t) => t.at - a.texts[held]!.at < 20);
    expect(came.length).toBeGreaterThanOrEqual(6);
  });

  it('lets a streaming reply go on as soon as the other has its first words', async () => {
    const [a, b] = await whileStreaming({ kind: 'chunks', chunks: ['Soon.'], startDelayMs: 100 });
    expect(a.done?.response).toBe(PIECES.join(''));
    expect(b.done?.response).toBe('Soon.');
    // Held until the second reply spoke, not for a whole hold: the pieces after it come on.
    const after = a.texts.filter((t) => t.at > b.texts[0]!.at);
    expect(after.length).toBeGreaterThan(0);
    expect(after[0]!.at - b.texts[0]!.at).toBeLessThan(100);
  });
});
