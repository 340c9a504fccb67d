/**
 * Slow maths, for the tests that check a question the engines would work on for seconds does not
 * hold the server: the equation, and a watch on the server's health while that question is open.
 */
import { expect } from 'vitest';

/** An equation mathsteps works on for about 3.5 s, synchronously: x/(x+1)/(x+2)/…/(x+11) = 1. */
export const SLOW_EQUATION =
  'x' + Array.from({ length: 11 }, (_, i) => `/(x+${i + 1})`).join('') + ' = 1';

/**
 * Asks the server at `url` for its health, one request after another, until `pending` settles,
 * expecting 200 each time, and checks the server kept answering meanwhile: a health request is in
 * flight the whole time, so the engines' synchronous seconds on the server's thread would hold one
 * of them that long. No answer may take HELD_MS. The watch counts no answers: how many fit in the
 * product's 1 s budget depends on the machine's load (at load 30, too few for a count to mean
 * anything), and how fast the server answers is for `bench/`, not for a test.
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
  }
  expect(latencies.length, 'health answers while the maths ran').toBeGreaterThanOrEqual(1);
  expect(Math.max(...latencies), 'the longest health answer, ms').toBeLessThan(HELD_MS);
}

/**
 * Less than the engines' synchronous run on SLOW_EQUATION (3.5 s on an idle machine, longer the busier
 * it is), well over a health answer: milliseconds idle, up to 2.1 s seen at load 28–34 (4 CPU burners
 * and five other developers' runs on 2 cores), which broke the 2 s this was.
 */
const HELD_MS = 3000;
