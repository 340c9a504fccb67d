/**
 * The tutor's maths tools, run on the server through the AI SDK's tool calling: `check_math` (is this
 * answer or step right? evaluate, compare expressions, solve) and `solve_steps` (the step engine).
 * They run in a pool of worker threads (maths-pool.ts), `runMathTool`: each call answers within its
 * budget (the settings' `toolTimeoutMs`, 1 s) of starting to run, and one that would run longer is
 * stopped there instead of blocking the server.
 */
import { tool, zodSchema } from 'ai';
import { z } from 'zod';

import { runMaths, warmUp } from './maths-pool';
import type { Result } from './tool-runs';

/** Starts the maths thread and loads the engines in the background, before the first tool call. */
export function warmUpMaths(): void {
  void warmUp();
}

/** Resolves once the maths thread can run calls (tests wait for it, as a started server has). */
export const mathsReady = warmUp;

/*
 * Each schema is wrapped once (`zodSchema`), so that its JSON Schema is made once and kept: a bare zod
 * schema is converted again on every request to the model (bench:class's profile, 1–2 ms a reply).
 */
export const mathTools = {
  check_math: tool({
    description:
      'Checks maths exactly. Give an expression or equation; with `claimed`, answers whether the claim is correct ' +
      '(a value, a simplified form, or a solution such as "x = 4"); without it, evaluates, simplifies or solves. ' +
      'Use it for every number you state and every student answer you mark.',
    inputSchema: zodSchema(
      z.object({
        expression: z
          .string()
          .describe('Plain maths, e.g. "3/4 + 1/8", "2*x + 3 = 11", "15% of 80"'),
        claimed: z
          .string()
          .optional()
          .describe('The claimed result, e.g. "7/8", "5x - 4" or "x = 4"'),
      }),
    ),
  }),
  solve_steps: tool({
    description:
      'Solves an equation or simplifies an expression step by step; answers each step with its reason, in LaTeX.',
    inputSchema: zodSchema(
      z.object({
        problem: z.string().describe('Plain maths, e.g. "2x + 3 = 11" or "1/2 + 1/3"'),
      }),
    ),
  }),
};

/** Runs one checked tool call in the maths pool, answering within `timeoutMs` of starting to run. */
export function runMathTool(
  name: keyof typeof mathTools,
  input: unknown,
  timeoutMs: number,
): Promise<Result> {
  return name === 'check_math'
    ? runMaths({ name, input: input as { expression: string; claimed?: string } }, timeoutMs)
    : runMaths({ name, input: input as { problem: string } }, timeoutMs);
}
