/**
 * Runs the maths tools in a pool of worker threads (maths-worker.ts), one call per thread at a time,
 * each call bounded. The engines are synchronous and cannot be interrupted: a call that has not
 * answered within its time ends its own thread, and only that one (a fresh thread takes its place).
 * A call's clock starts when a thread takes it, so calls queued behind a slow one are not charged for
 * its time: one student's pathological equation keeps one thread busy for its budget while the others
 * go on answering everyone else. A call that waits in the queue longer than `QUEUE_LIMIT_MS` (every
 * thread stuck or still loading) answers that the checker is busy, without ending anything.
 *
 * An expression is also measured before it is queued (`tooBig`: operators and nesting depth, a pass
 * over the characters), so a huge one never reaches the engines.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';

import { startWorker } from '../threads';
import type { MathsAnswer, MathsJob } from './maths-worker';
import type { Result } from './tool-runs';

type Call = Omit<MathsJob, 'id'>;

interface Pending {
  job: MathsJob;
  timeoutMs: number;
  /** Ends the call with `result` (once). */
  settle: (result: Result) => void;
  /** The queue's deadline, cleared when a thread takes the call. */
  queueTimer?: NodeJS.Timeout;
}

interface Thread {
  worker: Worker;
  ready: Promise<void>;
  isReady: boolean;
  /** The call it is running, and that call's run timer. */
  running: { call: Pending; timer: NodeJS.Timeout } | null;
  ended: boolean;
}

/** Threads: from the cores, at least 2 (so one stuck call never stops everyone), at most 4. */
export const POOL_SIZE = Math.max(2, Math.min(os.availableParallelism(), 4));

/** How long a call may wait for a free thread before it answers that the checker is busy. */
export const QUEUE_LIMIT_MS = 5000;

export const TOO_LONG = 'The check took too long; work it out carefully instead.';
export const TOO_BUSY = 'The maths checker is busy; work it out carefully instead.';
export const TOO_BIG = 'This is too big to check; split it into smaller steps.';

/** Limits of `tooBig`: far above school maths, far below what keeps an engine busy for long. */
const MAX_OPERATORS = 60;
const MAX_DEPTH = 8;

let threads: Thread[] = [];
const queue: Pending[] = [];
let nextId = 1;

/** Gives queued calls to the ready, idle threads. */
function dispatch() {
  for (const thread of threads) {
    if (queue.length === 0) return;
    if (!thread.isReady || thread.running || thread.ended) continue;
    const call = queue.shift()!;
    clearTimeout(call.queueTimer);
    // The call's clock starts now, when it runs.
    const timer = setTimeout(() => expire(thread), call.timeoutMs);
    thread.running = { call, timer };
    thread.worker.postMessage(call.job);
  }
}

/** The running call took too long: it answers so, and its thread (only its) is ended and replaced. */
function expire(thread: Thread) {
  const running = thread.running;
  if (!running || thread.ended) return;
  thread.running = null;
  running.call.settle({ error: TOO_LONG });
  retire(thread);
  void thread.worker.terminate();
}

/** Takes `thread` out of the pool and starts its replacement (loading takes seconds: start now). */
function retire(thread: Thread) {
  if (thread.ended) return;
  thread.ended = true;
  threads = threads.filter((t) => t !== thread);
  if (threads.length < POOL_SIZE) startThread();
}

function startThread(): Thread {
  const worker = startWorker(new URL('./maths-worker.ts', import.meta.url));
  let markReady = () => {};
  const thread: Thread = {
    worker,
    isReady: false,
    ready: new Promise<void>((resolve) => (markReady = resolve)),
    running: null,
    ended: false,
  };
  worker.on('message', (message: MathsAnswer | 'ready') => {
    if (message === 'ready') {
      // A thread keeps the process alive while it loads (a script awaiting `warmUp` gets its
      // threads), never once idle: a call in flight has its own timer. Unref'd here, after the
      // listeners: adding a 'message' listener refs the worker's port again, and a script that
      // had asked for maths never exited.
      worker.unref();
      thread.isReady = true;
      markReady();
      dispatch();
      return;
    }
    const running = thread.running;
    if (!running || running.call.job.id !== message.id) return;
    clearTimeout(running.timer);
    thread.running = null;
    running.call.settle(message.result);
    dispatch();
  });
  const failed = (why: string) => {
    markReady(); // settled: a caller waiting for it learns from its call's answer
    const running = thread.running;
    thread.running = null;
    if (running) {
      clearTimeout(running.timer);
      running.call.settle({ error: why });
    }
    retire(thread);
    dispatch();
  };
  worker.on('error', (error) => failed(`The check failed: ${error.message}`));
  worker.on('exit', () => failed(TOO_LONG));
  threads.push(thread);
  return thread;
}

function fillPool() {
  while (threads.length < POOL_SIZE) startThread();
}

/** Starts the threads and loads the engines; resolves once every thread can run calls. */
export async function warmUp(): Promise<void> {
  fillPool();
  await Promise.all(threads.map((t) => t.ready));
}

/**
 * Too big for the engines: more than `MAX_OPERATORS` operators or brackets nested deeper than
 * `MAX_DEPTH`. One pass over the characters, before anything is parsed.
 */
export function tooBig(text: string): boolean {
  let depth = 0;
  let deepest = 0;
  let operators = 0;
  for (const ch of text) {
    if (ch === '(' || ch === '[' || ch === '{') deepest = Math.max(deepest, ++depth);
    else if (ch === ')' || ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
    else if ('+-*/^=%'.includes(ch)) operators++;
  }
  return operators > MAX_OPERATORS || deepest > MAX_DEPTH;
}

function mathsTexts(call: Call): string[] {
  const job = call as MathsJob; // `Omit` over the union loses which input goes with which name
  switch (job.name) {
    case 'check_math':
      return [job.input.expression, job.input.claimed ?? ''];
    case 'solve_steps':
      return [job.input.problem];
    case 'coach':
      return [];
  }
}

/**
 * Runs one call on a free thread; answers within `timeoutMs` of starting to run, an error when it
 * could not. With `afterLoad`, the call waits in the queue as long as it takes (the offline coach's
 * answer waits for the engines); otherwise at most `QUEUE_LIMIT_MS` (a tool call, whose model can
 * do without).
 */
export function runMaths(
  call: Call,
  timeoutMs: number,
  { afterLoad = false }: { afterLoad?: boolean } = {},
): Promise<Result> {
  if (mathsTexts(call).some(tooBig)) return Promise.resolve({ error: TOO_BIG });
  fillPool();
  const job = { ...call, id: nextId++ } as MathsJob;
  return new Promise<Result>((resolve) => {
    let done = false;
    const pending: Pending = {
      job,
      timeoutMs,
      settle: (result) => {
        if (done) return;
        done = true;
        resolve(result);
      },
    };
    if (!afterLoad) {
      pending.queueTimer = setTimeout(() => {
        const at = queue.indexOf(pending);
        if (at < 0) return;
        queue.splice(at, 1);
        pending.settle({ error: TOO_BUSY });
      }, QUEUE_LIMIT_MS);
    }
    queue.push(pending);
    dispatch();
  });
}
