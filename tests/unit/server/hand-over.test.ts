/**
 * How PGlite's thread hands its answers to the main thread (server/db/pglite-thread.ts
 * `handOverInTurns`): at once while a turn of the event loop has time left, past that in later
 * turns with timers and I/O between, always in order. Over a real thread: the burst test in
 * tests/server/db/pglite-thread.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { handOverInTurns } from '../../../server/db/pglite-thread';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
const turnsLater = (n: number) =>
  new Promise<void>((resolve) => {
    const step = (left: number) => (left === 0 ? resolve() : setTimeout(() => step(left - 1), 0));
    step(n);
  });

describe('handing answers over in turns', () => {
  it('hands answers over at once while the turn has time', () => {
    const handOver = handOverInTurns(10);
    const seen: number[] = [];
    for (const i of [1, 2, 3]) handOver(() => seen.push(i));
    expect(seen).toEqual([1, 2, 3]);
  });

  it('hands the rest of a long burst over in later turns, in order, a timer between', async () => {
    const handOver = handOverInTurns(10);
    const seen: (number | 'timer')[] = [];
    setTimeout(() => seen.push('timer'), 0);
    // 60 answers whose requests each take 1 ms: 60 ms, six times the budget.
    for (let i = 0; i < 60; i++)
      handOver(() => {
        busy(1);
        seen.push(i);
      });
    const atOnce = seen.length;
    expect(atOnce).toBeGreaterThanOrEqual(5);
    expect(atOnce).toBeLessThan(20);
    while (seen.filter((s) => s !== 'timer').length < 60) await turnsLater(1);
    const answers = seen.filter((s) => s !== 'timer');
    expect(answers).toEqual(Array.from({ length: 60 }, (_, i) => i));
    // The timer set before the burst ran before its last answers, not after all of them.
    expect(seen.indexOf('timer')).toBeLessThan(seen.indexOf(59));
  });

  it("runs each answer's continuations before the next answer", async () => {
    const handOver = handOverInTurns(1);
    const seen: string[] = [];
    for (let i = 0; i < 5; i++)
      handOver(() => {
        busy(1);
        seen.push(`answer ${i}`);
        void Promise.resolve().then(() => seen.push(`after ${i}`));
      });
    await turnsLater(20);
    // The first was handed over at once (its continuation ran when the caller's task ended);
    // each later one's continuation ran before the next answer.
    expect(seen.slice(1)).toEqual(
      ['after 0', 'answer 1', 'after 1', 'answer 2', 'after 2', 'answer 3', 'after 3'].concat([
        'answer 4',
        'after 4',
      ]),
    );
  });

  it('starts every turn with a full budget', async () => {
    const handOver = handOverInTurns(10);
    const seen: number[] = [];
    handOver(() => {
      busy(12);
      seen.push(1);
    });
    await turnsLater(2);
    handOver(() => seen.push(2));
    expect(seen).toEqual([1, 2]);
  });
});
