/**
 * How much image work (sharp: decoding and encoding avatars) one process does at once. Each job takes
 * a place; while all are taken, up to `queue` jobs wait for one, and any more are refused at once with
 * 503 {detail} and Retry-After, so a burst of uploads cannot take the CPU from everyone else
 * (issue 22 #8: 16 uploads at once pushed another student's sign-in to 13.6 s).
 */
import { AppError } from '../../http/errors';

export const IMAGE_BUSY = 'Too many images are being processed. Please try again in a moment.';

export interface ImageWork {
  run<T>(job: () => Promise<T>): Promise<T>;
  /** Jobs running now, and the most that ever ran at once (for tests and benches). */
  readonly active: number;
  readonly peak: number;
}

export function createImageWork(concurrency: number, queue: number): ImageWork {
  let active = 0;
  let peak = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(job) {
      if (active >= concurrency) {
        if (waiting.length >= queue) throw new AppError(503, IMAGE_BUSY, { 'Retry-After': '2' });
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        active++;
      }
      peak = Math.max(peak, active);
      try {
        return await job();
      } finally {
        // The place passes straight to the next waiting job, or is given back.
        const next = waiting.shift();
        if (next) next();
        else active--;
      }
    },
    get active() {
      return active;
    },
    get peak() {
      return peak;
    },
  };
}

/** Two images at once per process (sharp uses a thread per image; the rest serve requests). */
export const imageWork = createImageWork(2, 8);
