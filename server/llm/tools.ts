/**
 * The tutor's maths tools, run on the server through the AI SDK's tool calling: `check_math` (is this
 * answer or step right? evaluate, compare expressions, solve) and `solve_steps` (the step engine).
 * The engines load on first use (they are large), and each call is bounded by TOOL_TIMEOUT_MS.
 */
import { tool } from 'ai';
import { z } from 'zod';
import type { Result } from './tool-runs';

/** A tool call that takes longer answers an error to the model instead. */
export const TOOL_TIMEOUT_MS = 1000;

const runs = () => import('./tool-runs');

/** Loads the engines in the background, so the first tool call does not pay for it. */
export function warmUpMaths(): void {
  void runs().catch(() => undefined);
}

async function bounded(work: () => Promise<Result>): Promise<Result> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Result>((resolve) => {
    timer = setTimeout(
      () => resolve({ error: 'The check took too long; work it out carefully instead.' }),
      TOOL_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([work(), late]);
  } catch (error) {
    return { error: `The check failed: ${(error as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

export const mathTools = {
  check_math: tool({
    description:
      'Checks maths exactly. Give an expression or equation; with `claimed`, answers whether the claim is correct ' +
      '(a value, a simplified form, or a solution such as "x = 4"); without it, evaluates, simplifies or solves. ' +
      'Use it for every number you state and every student answer you mark.',
    inputSchema: z.object({
      expression: z.string().describe('Plain maths, e.g. "3/4 + 1/8", "2*x + 3 = 11", "15% of 80"'),
      claimed: z
        .string()
        .optional()
        .describe('The claimed result, e.g. "7/8", "5x - 4" or "x = 4"'),
    }),
    execute: (input) => bounded(async () => (await runs()).checkMath(input)),
  }),
  solve_steps: tool({
    description:
      'Solves an equation or simplifies an expression step by step; answers each step with its reason, in LaTeX.',
    inputSchema: z.object({
      problem: z.string().describe('Plain maths, e.g. "2x + 3 = 11" or "1/2 + 1/3"'),
    }),
    execute: (input) => bounded(async () => (await runs()).solveSteps(input)),
  }),
};
