/**
 * Runs the maths tools in one worker thread (maths-worker.ts), each call bounded: a call that has
 * not answered within its time ends the thread (the engines cannot be interrupted any other way),
 * and the next call starts a fresh one. Loading the engines does not count against a call's time
 * limit's kill: a call waiting for a thread still loading just answers that it took too long.
 */
import { Worker } from 'node:worker_threads';
import type { MathsAnswer, MathsJob } from './maths-worker';
import type { Result } from './tool-runs';

type Call = Omit<MathsJob, 'id'>;

interface Pending {
  job: MathsJob;
  sent: boolean;
  /** Called when the job is sent (its time limit may start then). */
  onSend: () => void;
  resolve: (result: Result) => void;
}

interface Thread {
  worker: Worker;
  ready: Promise<void>;
  isReady: boolean;
  /** Its calls not answered yet. */
  pending: Map<number, Pending>;
}

let thread: Thread | null = null;
let nextId = 1;

function createWorker(): Worker {
  // From the sources (tsx, vitest) the worker is TypeScript, loaded through tsx's loader; built, it
  // is the maths-worker.js beside main.js (server/build.mjs).
  if (import.meta.url.endsWith('.ts')) {
    const file = new URL('./maths-worker.ts', import.meta.url).href;
    return new Worker(
      `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(file)}); })`,
      { eval: true },
    );
  }
  return new Worker(new URL('./maths-worker.js', import.meta.url));
}

function send(current: Thread, call: Pending) {
  call.sent = true;
  call.onSend();
  current.worker.postMessage(call.job);
}

function startThread(): Thread {
  if (thread) return thread;
  const worker = createWorker();
  // An idle thread never keeps the process alive.
  worker.unref();
  let markReady = () => {};
  const current: Thread = {
    worker,
    isReady: false,
    ready: new Promise<void>((resolve) => (markReady = resolve)),
    pending: new Map(),
  };
  const { pending } = current;
  worker.on('message', (message: MathsAnswer | 'ready') => {
    if (message === 'ready') {
      current.isReady = true;
      markReady();
      for (const call of pending.values()) if (!call.sent) send(current, call);
      return;
    }
    const call = pending.get(message.id);
    pending.delete(message.id);
    call?.resolve(message.result);
  });
  const failAll = (why: string) => {
    if (thread === current) thread = null;
    markReady(); // settled: a caller waiting for it learns from its calls' errors
    for (const [id, call] of pending) {
      pending.delete(id);
      call.resolve({ error: why });
    }
  };
  worker.on('error', (error) => failAll(`The check failed: ${error.message}`));
  worker.on('exit', () => failAll(TOO_LONG));
  thread = current;
  return current;
}

export const TOO_LONG = 'The check took too long; work it out carefully instead.';

/** Starts the thread and loads the engines; resolves once calls can run. */
export function warmUp(): Promise<void> {
  return startThread().ready;
}

/**
 * Runs one call in the thread; answers within `timeoutMs`, an error when it could not. With
 * `afterLoad`, the time counts from when the thread has loaded (the offline coach's answer waits for
 * the engines; a tool call, whose model can do without, does not).
 */
export function runMaths(
  call: Call,
  timeoutMs: number,
  { afterLoad = false }: { afterLoad?: boolean } = {},
): Promise<Result> {
  const current = startThread();
  const job = { ...call, id: nextId++ } as MathsJob;
  return new Promise<Result>((resolve) => {
    const { pending } = current;
    let timer: NodeJS.Timeout | undefined;
    const expire = () => {
      const entry = pending.get(job.id);
      if (!entry) return;
      pending.delete(job.id);
      resolve({ error: TOO_LONG });
      // Sent and unanswered: the engines are stuck on it (or on one before it). End the thread.
      if (entry.sent && thread === current) {
        thread = null;
        void current.worker.terminate();
        // The next thread loads now, so the next calls find it ready (loading takes seconds).
        startThread();
      }
    };
    if (!afterLoad) timer = setTimeout(expire, timeoutMs);
    const entry: Pending = {
      job,
      sent: false,
      onSend: () => {
        timer ??= setTimeout(expire, timeoutMs);
      },
      resolve: (result) => {
        clearTimeout(timer);
        resolve(result);
      },
    };
    pending.set(job.id, entry);
    if (current.isReady) send(current, entry);
  });
}
