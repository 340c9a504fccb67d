/**
 * First words first (server/http/stream-gate.ts), the gate alone: a reply with its first words out
 * waits its turn while more than `above` replies holding a slot still wait for theirs, and goes on
 * once they are few, or after `holdMs` at most. A reply in line, or one sent whole (`/send`), is
 * not counted; nor is one released before it spoke.
 */
import { describe, expect, it } from 'vitest';

import { createStreamGate } from '../../../server/http/stream-gate';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `wait` has settled within a few turns of the event loop. */
async function settled(wait: Promise<void> | null) {
  if (!wait) return true;
  let done = false;
  void wait.then(() => (done = true));
  await sleep(5);
  return done;
}

const gateOf = (above: number, holdMs = 60_000, maxStreams = 10) =>
  createStreamGate({ maxStreams, queueSize: 10, firstWords: { above, holdMs } });

describe('first words first', () => {
  it('lets a reply that spoke go on while few others wait for their first words', () => {
    const gate = gateOf(1);
    const speaking = gate.enter({ awaitingFirstWords: true });
    expect(speaking.turn()).toBeNull(); // it has not spoken: never held
    speaking.spoke();
    gate.enter({ awaitingFirstWords: true }); // one waits: not more than `above`
    expect(gate.load().unspoken).toBe(1);
    expect(speaking.turn()).toBeNull();
  });

  it('holds a reply that spoke until the others have their first words', async () => {
    const gate = gateOf(1);
    const speaking = gate.enter({ awaitingFirstWords: true });
    speaking.spoke();
    const [a, b, c] = [1, 2, 3].map(() => gate.enter({ awaitingFirstWords: true }));
    // Those still waiting for their words are never held.
    expect(a!.turn()).toBeNull();
    const wait = speaking.turn();
    expect(wait).not.toBeNull();
    // Every reply that spoke shares the one wait.
    const other = gate.enter({ awaitingFirstWords: true });
    other.spoke();
    expect(other.turn()).toBe(wait);
    a!.spoke();
    expect(await settled(wait)).toBe(false); // two still wait: more than one
    b!.release(); // a reply that failed before its words is no longer waited for
    expect(await settled(wait)).toBe(true);
    expect(gate.load().unspoken).toBe(1);
    expect(speaking.turn()).toBeNull();
    c!.spoke();
    expect(gate.load().unspoken).toBe(0);
  });

  it('holds a reply at most holdMs, then again while the crowd stays', async () => {
    const gate = gateOf(0, 50);
    const speaking = gate.enter({ awaitingFirstWords: true });
    speaking.spoke();
    gate.enter({ awaitingFirstWords: true });
    const began = performance.now();
    const first = speaking.turn();
    await first;
    expect(performance.now() - began).toBeGreaterThanOrEqual(45);
    const second = speaking.turn();
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    await second;
  });

  it('counts neither whole replies nor replies in line, and a promoted one once', async () => {
    const gate = gateOf(0, 60_000, 2);
    const whole = gate.enter();
    const speaking = gate.enter({ awaitingFirstWords: true });
    speaking.spoke();
    const waiting = gate.enter({ awaitingFirstWords: true });
    expect(waiting.waiting).toBe(true);
    expect(gate.load()).toEqual({ active: 2, waiting: 1, unspoken: 0 });
    expect(speaking.turn()).toBeNull();
    expect(whole.turn()).toBeNull();
    // A slot frees: the reply in line is being written, and waits for its words.
    whole.release();
    await waiting.ready();
    expect(gate.load()).toEqual({ active: 2, waiting: 0, unspoken: 1 });
    const wait = speaking.turn();
    expect(await settled(wait)).toBe(false);
    waiting.spoke();
    waiting.spoke();
    expect(await settled(wait)).toBe(true);
    waiting.release();
    speaking.release();
    expect(gate.load()).toEqual({ active: 0, waiting: 0, unspoken: 0 });
  });
});
