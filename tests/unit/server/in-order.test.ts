/**
 * `inOrder` (server/db): statements sent together in one transaction are awaited together, and the
 * failure thrown is the first in the order they were sent, not the first to settle: in an aborted
 * transaction each later statement fails too, for no reason of its own.
 */
import { describe, expect, it } from 'vitest';

import { inOrder } from '../../../server/db';

const later = <T>(ms: number, value: T) =>
  new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const failLater = (ms: number, message: string) =>
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(message)), ms));

describe('inOrder', () => {
  it('answers every value, in order, like Promise.all', async () => {
    const [a, b, c] = await inOrder([() => later(5, 'a'), () => 2, () => later(1, { c: true })]);
    expect([a, b, c]).toEqual(['a', 2, { c: true }]);
  });

  it("throws the first statement's failure even when a later one fails first", async () => {
    const why = inOrder([
      () => failLater(20, 'lock wait'),
      () => failLater(1, 'transaction aborted'),
    ]);
    await expect(why).rejects.toThrow('lock wait');
  });

  it('waits for every statement before it throws', async () => {
    let finished = false;
    const slow = later(20, null).then(() => (finished = true));
    await expect(inOrder([() => Promise.reject(new Error('refused')), () => slow])).rejects.toThrow(
      'refused',
    );
    expect(finished).toBe(true);
  });

  it('starts each statement in the order given, a lazy query before an eager one', async () => {
    // A drizzle query starts when awaited; an async function makes its query when called.
    const started: string[] = [];
    const lazy = {
      then: (resolve: (v: string) => void) => (started.push('lock'), resolve('lock')),
    };
    const eager = async () => {
      await { then: (resolve: (v: string) => void) => (started.push('reply'), resolve('reply')) };
      return 'reply';
    };
    expect(await inOrder([() => lazy, eager])).toEqual(['lock', 'reply']);
    expect(started).toEqual(['lock', 'reply']);
  });
});
