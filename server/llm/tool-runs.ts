/**
 * What the tutor's maths tools do (see tools.ts). Inputs are short and bounded (the engines are
 * synchronous, so a long input is refused rather than timed out), every result is plain JSON the model
 * reads, and bad input answers an `error` the model can recover from, never a thrown error.
 */
import { equivalent, evaluateNumber, normalise, satisfies, solve } from './maths';

/** The longest maths text a tool reads; longer input is refused (keeps each call well under 1 s). */
export const MAX_TOOL_INPUT = 120;

export type Result = Record<string, unknown>;

function unreadable(text: string): Result {
  return {
    error: `Could not read "${text.slice(0, MAX_TOOL_INPUT)}" as maths. Write plain maths such as "2*x + 3 = 11" or "3/4 + 1/8".`,
  };
}

function tidy(text: string): string | null {
  const clean = normalise(text)
    .replace(/\\cdot|\\times/g, '*')
    .replace(/\\frac\{([^{}]*)\}\{([^{}]*)\}/g, '(($1)/($2))')
    .replace(/[$\\]/g, '')
    .trim();
  return clean && clean.length <= MAX_TOOL_INPUT ? clean : null;
}

/** "x = 4", "4", "x=-3 or x=3" → the values. */
function claimedValues(claim: string): number[] | null {
  const parts = claim
    .split(/\bor\b|,|;/)
    .map((p) => p.trim())
    .filter(Boolean);
  const values = parts.map((p) => evaluateNumber(p.includes('=') ? p.split('=').at(-1)! : p));
  return values.every((v) => v !== null) && values.length > 0 ? (values as number[]) : null;
}

export function checkMath(input: { expression: string; claimed?: string | undefined }): Result {
  const expression = tidy(input.expression);
  if (!expression) return unreadable(input.expression);
  const claimed = input.claimed === undefined ? undefined : tidy(input.claimed);
  if (claimed === null) return unreadable(input.claimed!);

  if (expression.includes('=')) {
    const worked = solve(expression);
    const solutions = worked?.solutions?.map((v) => `${worked.variable} = ${v}`).join(' or ');
    if (claimed === undefined)
      return worked ? { solutions } : { error: 'Could not solve this equation.' };
    const values = claimedValues(claimed);
    const variable = worked?.variable ?? /[a-z]/.exec(expression)?.[0];
    if (!values || !variable) return unreadable(claimed);
    const checks = values.map((v) => satisfies(expression, variable, v));
    if (checks.some((c) => c === null)) return unreadable(expression);
    const allFound = worked?.solutions ? worked.solutions.length === values.length : true;
    return {
      correct: checks.every(Boolean) && allFound,
      ...(solutions ? { solutions } : {}),
    };
  }

  const value = evaluateNumber(expression);
  if (claimed === undefined) {
    if (value !== null) return { value: Number(value.toPrecision(12)) };
    const worked = solve(expression);
    return worked
      ? { simplified: worked.steps.at(-1)?.latex ?? worked.problemLatex }
      : unreadable(expression);
  }
  const same = equivalent(expression, claimed.includes('=') ? claimed.split('=').at(-1)! : claimed);
  if (same === null) return unreadable(`${expression} / ${claimed}`);
  return { correct: same, ...(value !== null ? { value: Number(value.toPrecision(12)) } : {}) };
}

export function solveSteps(input: { problem: string }): Result {
  const problem = tidy(input.problem);
  if (!problem) return unreadable(input.problem);
  const worked = solve(problem);
  if (!worked)
    return {
      error:
        'The step engine cannot solve this one; work it out carefully and check it with check_math.',
    };
  return {
    steps: worked.steps.map((s) => ({ reason: s.reason, latex: s.latex })),
    answer: worked.answerLatex,
  };
}
