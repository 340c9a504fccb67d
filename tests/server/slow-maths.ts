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
 * time, and answers how long each answer took (ms), so a test can say the server kept answering.
 */
export async function healthLatencies(url: string, pending: Promise<unknown>): Promise<number[]> {
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
  return latencies;
}
