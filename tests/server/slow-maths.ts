/**
 * Slow maths, for the tests that check a question the engines would work on for seconds does not
 * hold the server: the equation, and a watch on the server's health while that question is open.
 */
import { expect } from 'vitest';

/** An equation mathsteps works on for about 3.5 s, synchronously: x/(x+1)/(x+2)/…/(x+11) = 1. */
export const SLOW_EQUATION =
  'x' + Array.from({ length: 11 }, (_, i) => `/(x+${i + 1})`).join('') + ' = 1';

/**
 * Asks the server at `url` for its health every 50 ms until `pending` settles, expecting 200 each
 * time, and checks the server kept answering meanwhile: several answers, none of them held for the
 * engines' synchronous seconds. A bound a busy runner cannot break by accident (an answer waiting on
 * mathsteps waits 3.5 s or more); how fast it answers is for `bench/`, not for a test.
 */
export async function expectServerKeptAnswering(url: string, pending: Promise<unknown>) {
  const latencies: number[] = [];
  let done = false;
  void pending.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    const t = Date.now();
    expect((await fetch(url + '/api/v1/health')).status).toBe(200);
    latencies.push(Date.now() - t);
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(latencies.length, 'health answers while the maths ran').toBeGreaterThanOrEqual(3);
  expect(Math.max(...latencies), 'the longest health answer, ms').toBeLessThan(HELD_MS);
}

/** Less than the engines' synchronous run on SLOW_EQUATION, far more than any health answer. */
const HELD_MS = 2000;
