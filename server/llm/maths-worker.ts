/**
 * The maths engines — the tools and the offline coach — in a worker thread (see maths-pool.ts). They are synchronous, and a few short
 * inputs make them work for seconds (`x/(x+1)/(x+2)/…/(x+11) = 1` takes mathsteps 3.5 s): here a
 * call that runs too long is stopped by ending the thread, never by blocking every other request.
 */
import { parentPort } from 'node:worker_threads';

import { coachAnswer } from './coach';
import type { StudentContext } from './prompt';
import type { Result } from './tool-runs';
import { checkMath, solveSteps } from './tool-runs';
import type { Turn } from './turn';

export type MathsJob =
  | { id: number; name: 'check_math'; input: { expression: string; claimed?: string | undefined } }
  | { id: number; name: 'solve_steps'; input: { problem: string } }
  /** The offline coach's whole answer (it solves the student's maths too): `{ text }`. */
  | {
      id: number;
      name: 'coach';
      input: { student: StudentContext; question: string; history: Turn[] };
    };

function run(job: MathsJob): Result {
  switch (job.name) {
    case 'check_math':
      return checkMath(job.input);
    case 'solve_steps':
      return solveSteps(job.input);
    case 'coach':
      return { text: coachAnswer(job.input.student, job.input.question, job.input.history) };
  }
}

export interface MathsAnswer {
  id: number;
  result: Result;
}

const port = parentPort!;
port.on('message', (job: MathsJob) => {
  let result: Result;
  try {
    result = run(job);
  } catch (error) {
    result = { error: `The check failed: ${(error as Error).message}` };
  }
  port.postMessage({ id: job.id, result } satisfies MathsAnswer);
});
// The engines are loaded (the imports above): calls may come.
port.postMessage('ready');
