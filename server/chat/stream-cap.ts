/**
 * Replies being written at once, per student, on this server (red team round 3: one student held
 * 56 model requests at once). A small check of its own before a send begins, apart from any global
 * queue: beyond `max`, 429 with `Retry-After`.
 */
import { AppError } from '../http/errors';

export const STREAM_CAP_MESSAGE =
  'You already have replies being written. Please wait for them to finish and try again.';

export function createStreamCap(max: number) {
  const active = new Map<string, number>();
  return {
    /** Takes a place for `userId` (429 when they have `max`); call the answer once the reply ends. */
    acquire(userId: string): () => void {
      const count = active.get(userId) ?? 0;
      if (count >= max) throw new AppError(429, STREAM_CAP_MESSAGE, { 'Retry-After': '5' });
      active.set(userId, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (active.get(userId) ?? 1) - 1;
        if (left <= 0) active.delete(userId);
        else active.set(userId, left);
      };
    },
  };
}
