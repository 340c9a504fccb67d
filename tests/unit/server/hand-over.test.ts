/**
 * How PGlite's thread hands its answers to the main thread (server/db/pglite-thread.ts
 * `handOverInTurns`): at once while a turn of the event loop has time left, past that one a turn
 * with timers and I/O between, always in order. Over a real thread: the burst test in
 * tests/server/db/pglite-thread.test.ts.
 */
import { MessageChannel } from 'node:worker_threads';

import { describe, expect, it } from 'vitest';

import { handOverInTurns } from '../../../server/db/pglite-thread';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
/**
 * Posts `n` messages on a port and hands each to `onMessage` as it arrives: Node delivers the
 * queued messages of a port in one turn, each message's continuations before the next, as it does
 * the PGlite thread's answers. Resolves once the last has been handed on.
 */
function onPort(n: number, onMessage: (i: number) => void): Promise<void> {
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve) => {
    port2.on('message', (i: number) => {
      onMessage(i);
      if (i === n - 1) {
        port1.close();
        resolve();
      }
    });
    for (let i = 0; i < n; i++) port1.postMessage(i);
  });
}

const turnsLater = (n: number) =>
  new Promise<void>((resolve) => {
    const step = (left: number) => (left === 0 ? resolve() : setTimeout(() => step(left - 1), 0));
    step(n);
  });

describe('handing answers over in turns', () => {
  it('hands answers over at once while the turn has time', () => {
    const handOver = handOverInTurns(1000);
    const seen: number[] = [];
    for (const i of [1, 2, 3]) handOver(() => seen.push(i));
    expect(seen).toEqual([1, 2, 3]);
  });

  it('hands the rest of a long burst over in later turns, in order, a timer between', async () => {
    const handOver = handOverInTurns(10);
    const seen: (number | 'timer')[] = [];
    // 60 answers queued on a port, as the thread's are, whose requests each take 1 ms: 60 ms in
    // all, six times the budget.
    await onPort(60, (i) => {
      // A timer set as the burst arrives (set before it, it may run before the port's first message).
      if (i === 0) setTimeout(() => seen.push('timer'), 0);
      handOver(() => {
        busy(1);
        seen.push(i);
      });
    });
    while (seen.filter((s) => s !== 'timer').length < 60) await turnsLater(1);
    expect(seen.filter((s) => s !== 'timer')).toEqual(Array.from({ length: 60 }, (_, i) => i));
    // Some went at once (about ten: fewer when this process loses its core meanwhile, as the budget
    // is wall-clock time), then the timer set as the burst arrived ran long before its last answers.
    const atOnce = seen.indexOf('timer');
    expect(atOnce).toBeGreaterThanOrEqual(1);
    expect(atOnce).toBeLessThan(30);
  });

  it("runs each answer's continuations, however deep, before the next answer", async () => {
    const handOver = handOverInTurns(1);
    const seen: string[] = [];
    /** A caller three awaits deep (driver, service, route), with 1 ms of work at the end. */
    const caller = (i: number) => {
      let resolve!: () => void;
      const answered = new Promise<void>((r) => (resolve = r));
      void (async () => {
        await (async () => {
          await (async () => {
            await answered;
          })();
        })();
        busy(1);
        seen.push(`work ${i}`);
      })();
      return () => {
        seen.push(`answer ${i}`);
        resolve();
      };
    };
    const callers = [0, 1, 2, 3].map(caller);
    await onPort(4, (i) => handOver(callers[i]!));
    await turnsLater(20);
    expect(seen).toEqual([0, 1, 2, 3].flatMap((i) => [`answer ${i}`, `work ${i}`]));
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
