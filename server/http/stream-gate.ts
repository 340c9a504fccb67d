/**
 * Back-pressure for the tutor's replies, in one process: at most `maxStreams` replies are written at
 * once; the next ones wait in a queue of at most `queueSize` places (a streamed reply tells its
 * student at once, with a `status` event, that they are in line), and past that a send is refused with
 * `503 {detail}` and `Retry-After` before anything is stored. A class that presses Enter together then
 * gets its first words in turn, instead of every reply slowing down until each one times out.
 *
 * The gate counts this process's replies only: with several processes, each has its own (README,
 * "Several processes"). It knows nothing of who sends; a cap per student is another matter.
 */
import { AppError } from './errors';

/** What a waiting student reads (the chat shows a stream's `status` beside its typing dots). */
export const BUSY_STATUS =
  "Lots of students are asking Ayah right now. You're in line: your answer is coming soon.";
/** The 503's detail, when even the line is full. */
export const BUSY_DETAIL =
  'Ayah is helping lots of students right now and cannot take your question yet. Please try again in a moment.';

export interface StreamGateSettings {
  /** Replies written at once (AYAH_MAX_STREAMS). */
  maxStreams: number;
  /** Sends that may wait for one of them (AYAH_STREAM_QUEUE). */
  queueSize: number;
}

/** A place at the gate: a slot at once, or a place in line until `ready` resolves. */
export interface StreamTicket {
  /** True when the place is in line: the reply must wait for `ready`. */
  readonly waiting: boolean;
  /** Resolves once the ticket holds a slot; rejects when `signal` aborts first (the place is given up). */
  ready(signal?: AbortSignal): Promise<void>;
  /** Gives the slot (or the place in line) back; calling it again does nothing. */
  release(): void;
}

/** Seconds a refused send is told to wait before it can expect a place, at the first 503. */
const FIRST_RETRY_SECONDS = 5;

export function createStreamGate({ maxStreams, queueSize }: StreamGateSettings) {
  let active = 0;
  const line: (() => void)[] = [];
  /** How long a reply holds its slot, smoothed (ms): the Retry-After of a 503. */
  let heldMs = FIRST_RETRY_SECONDS * 1000;

  function ticket(startsWaiting: boolean): StreamTicket {
    let holding = !startsWaiting;
    let released = false;
    let since = Date.now();
    let promote: () => void = () => {};
    const granted = new Promise<void>((resolve) => {
      if (holding) return resolve();
      promote = () => {
        holding = true;
        since = Date.now();
        resolve();
      };
      line.push(promote);
    });
    const place: StreamTicket = {
      waiting: startsWaiting,
      ready(signal) {
        if (holding || !signal) return granted;
        if (signal.aborted) {
          place.release();
          return Promise.reject(signal.reason);
        }
        return new Promise<void>((resolve, reject) => {
          const give = () => {
            place.release();
            reject(signal.reason);
          };
          signal.addEventListener('abort', give, { once: true });
          void granted.then(() => {
            signal.removeEventListener('abort', give);
            resolve();
          });
        });
      },
      release() {
        if (released) return;
        released = true;
        if (!holding) {
          const at = line.indexOf(promote);
          if (at !== -1) line.splice(at, 1);
          return;
        }
        heldMs = 0.8 * heldMs + 0.2 * (Date.now() - since);
        const next = line.shift();
        if (next) next();
        else active--;
      },
    };
    return place;
  }

  return {
    /**
     * A place for one reply; throws the 503 (with Retry-After) when every slot and every place in
     * line is taken.
     */
    enter(): StreamTicket {
      if (active < maxStreams) {
        active++;
        return ticket(false);
      }
      if (line.length < queueSize) return ticket(true);
      const retry = Math.min(
        60,
        Math.max(1, Math.ceil((heldMs * (1 + line.length / maxStreams)) / 1000)),
      );
      throw new AppError(503, BUSY_DETAIL, { 'Retry-After': String(retry) });
    },
    /** Replies being written and sends waiting, for logs and tests. */
    load: () => ({ active, waiting: line.length }),
  };
}
