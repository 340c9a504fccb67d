/**
 * Back-pressure for the tutor's replies, in one process: at most `maxStreams` replies are written at
 * once; the next ones wait in a queue of at most `queueSize` places (a streamed reply tells its
 * student at once, with a `status` event, that they are in line), and past that a send is refused with
 * `503 {detail}` and `Retry-After` before anything is stored. A class that presses Enter together then
 * gets its first words in turn, instead of every reply slowing down until each one times out.
 *
 * First words first: while more than `firstWords.above` of the replies holding a slot still wait for
 * their first words, a reply that has its first words out waits its `turn()` (at most
 * `firstWords.holdMs` at a time) before it reads more of the model. A class that presses Enter
 * together meets one thread, and each reply already streaming took a socket read and a write from it
 * every few tens of milliseconds: a fifth to a quarter of its work until 95% of the class had their
 * first words (bench:class's profile, 300 at once on PostgreSQL, issue 26). Held, a reply's next
 * words wait in its socket and come in one read. Seven runs each way, in turns (the median of three
 * bursts each): the first words' p95 above the model's own +334 ms on average against +379, the
 * replies' total p95 ×1.133 against ×1.153; a streaming reply's longest pause 210–290 ms against
 * 60–85 (the pace of many replies at once, `ReplyPacing`, is 50 ms).
 *
 * The gate counts this process's replies only: with several processes, each has its own (README,
 * "Several processes"). It knows nothing of who sends; a cap per student is another matter.
 */
import type { FirstWordsFirst } from '../config';
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
  /** When a reply with its first words out gives way to those without (config.ts `FirstWordsFirst`). */
  firstWords: FirstWordsFirst;
}

/** A place at the gate: a slot at once, or a place in line until `ready` resolves. */
export interface StreamTicket {
  /** True when the place is in line: the reply must wait for `ready`. */
  readonly waiting: boolean;
  /** Resolves once the ticket holds a slot; rejects when `signal` aborts first (the place is given up). */
  ready(signal?: AbortSignal): Promise<void>;
  /** The reply's first words are out (a ticket entered `awaitingFirstWords`); again does nothing. */
  spoke(): void;
  /**
   * Null, or a promise to wait for before reading more of the model: this reply has its first words
   * out while too many others with a slot still wait for theirs. Resolves once they are few, or at
   * most `firstWords.holdMs` after the wait began.
   */
  turn(): Promise<void> | null;
  /** Gives the slot (or the place in line) back; calling it again does nothing. */
  release(): void;
}

/** Seconds a refused send is told to wait before it can expect a place, at the first 503. */
const FIRST_RETRY_SECONDS = 5;

export function createStreamGate({ maxStreams, queueSize, firstWords }: StreamGateSettings) {
  let active = 0;
  const line: (() => void)[] = [];
  /** How long a reply holds its slot, smoothed (ms): the Retry-After of a 503. */
  let heldMs = FIRST_RETRY_SECONDS * 1000;
  /** Replies holding a slot whose first words are not out yet. */
  let unspoken = 0;
  /** While too many are: the wait replies with their first words share, and its end. */
  let crowd: { over: Promise<void>; end: () => void; timer: NodeJS.Timeout } | null = null;

  function endCrowd() {
    if (!crowd) return;
    clearTimeout(crowd.timer);
    crowd.end();
    crowd = null;
  }

  /** The shared wait, begun by the first reply to need it; null when few replies wait for words. */
  function crowded(): Promise<void> | null {
    if (unspoken <= firstWords.above) return null;
    if (!crowd) {
      let end!: () => void;
      const over = new Promise<void>((resolve) => (end = resolve));
      // At most `holdMs`: under a class that keeps coming, streaming replies go on in steps.
      const timer = setTimeout(endCrowd, firstWords.holdMs).unref();
      crowd = { over, end, timer };
    }
    return crowd.over;
  }

  function ticket(startsWaiting: boolean, awaitingFirstWords: boolean): StreamTicket {
    let holding = !startsWaiting;
    let released = false;
    let since = Date.now();
    let spoken = !awaitingFirstWords;
    // Counted in `unspoken` while it holds a slot (a reply in line is not being written), its first
    // words not out and the ticket not released.
    const counted = () => holding && !spoken && !released;
    const uncount = () => {
      if (--unspoken <= firstWords.above) endCrowd();
    };
    let promote: () => void = () => {};
    if (counted()) unspoken++;
    const granted = new Promise<void>((resolve) => {
      if (holding) return resolve();
      promote = () => {
        holding = true;
        since = Date.now();
        if (counted()) unspoken++;
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
      spoke() {
        if (counted()) uncount();
        spoken = true;
      },
      turn: () => (spoken && awaitingFirstWords ? crowded() : null),
      release() {
        if (released) return;
        if (counted()) uncount();
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
     * line is taken. `awaitingFirstWords`: a streamed reply, counted among those waiting for their
     * first words until `spoke()` (a whole reply sent at its end is not).
     */
    enter({ awaitingFirstWords = false } = {}): StreamTicket {
      if (active < maxStreams) {
        active++;
        return ticket(false, awaitingFirstWords);
      }
      if (line.length < queueSize) return ticket(true, awaitingFirstWords);
      const retry = Math.min(
        60,
        Math.max(1, Math.ceil((heldMs * (1 + line.length / maxStreams)) / 1000)),
      );
      throw new AppError(503, BUSY_DETAIL, { 'Retry-After': String(retry) });
    },
    /** Replies being written, sends waiting, and replies without their first words yet. */
    load: () => ({ active, waiting: line.length, unspoken }),
  };
}
