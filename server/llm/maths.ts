/**
 * Maths the tutor can trust: finding a problem in a student's message, solving it step by step with
 * mathsteps (Socratic's step engine) and checking answers and claims with mathjs. No algebra is
 * written by hand here: every worked solution is checked against the problem with mathjs before it
 * is used, and a problem either engine cannot handle answers null rather than a guess.
 */
import type { MathNode } from 'mathjs';
import { evaluate, parse } from 'mathjs';
import type { MathstepsStep } from 'mathsteps';
import mathsteps from 'mathsteps';

export interface MathStep {
  /** The problem after this step, in LaTeX. */
  latex: string;
  /** Why, in words: "Subtract 3 from both sides". */
  reason: string;
  /** The problem after this step as the engines read it ("2x = 8"), to check a student's step. */
  ascii?: string;
  /** The line this step tidies, written out ("(2x + 3) - 3 = 11 - 3"), when it tidies one. */
  written?: string;
  /** For an operation on both sides: which, and by how much ("3"). */
  operation?: { kind: Operation; amount: string };
}

export type Operation = 'add' | 'subtract' | 'multiply' | 'divide';

export interface Worked {
  kind: 'equation' | 'expression' | 'comparison';
  /** The problem as the engines read it ("2x + 3 = 11"). */
  problem: string;
  problemLatex: string;
  steps: MathStep[];
  answerLatex: string;
  /** Comparisons: the answer in words ("$\\frac{7}{8}$ is bigger than $\\frac{5}{6}$"). */
  verdict?: string;
  /** Equations: the variable and its solutions. */
  variable?: string;
  solutions?: number[];
  /** Comparisons: the two sides as written, over their common denominator. */
  compared?: Compared;
}

export interface Compared {
  /** Each side as written ("7/8", "0.7") and in LaTeX. */
  sides: [string, string];
  latex: [string, string];
  /** The common denominator and each side's top over it. */
  common: number;
  tops: [number, number];
  /** The line that writes both over the common denominator. */
  commonLatex: string;
}

const VARIABLES = 'xyn';
const EPSILON = 1e-9;

/** Writes what students type (×, ÷, "15% of 80", "3/4 of 20", "times") as plain maths. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[×·⋅]/g, '*')
    .replace(/÷/g, '/')
    .replace(/[−–]/g, '-')
    .replace(/²/g, '^2')
    .replace(/(\d)\s*percent\b/g, '$1%')
    .replace(/(\d+(?:\.\d+)?)\s*%\s*of\s+/g, '$1/100 * ')
    .replace(/(\d+\s*\/\s*\d+)\s+of\s+/g, '($1) * ')
    .replace(/(\d)\s+times\s+/g, '$1 * ')
    .replace(/(\d)\s+divided\s+by\s+/g, '$1 / ')
    .replace(/(\d)\s+plus\s+/g, '$1 + ')
    .replace(/(\d)\s+minus\s+/g, '$1 - ');
}

const RUN = new RegExp(
  `(?:\\d+(?:\\.\\d+)?|(?<![a-z])[${VARIABLES}](?![a-z])|[-+*/^=()]|\\s)+`,
  'g',
);

function parses(text: string): boolean {
  try {
    const sides = text.split('=');
    if (sides.length > 2) return false;
    for (const side of sides) parse(side);
    return true;
  } catch {
    return false;
  }
}

/** The longest piece of maths in a message ("2x + 3 = 11"), or null when there is none. */
export function findMaths(text: string): string | null {
  let best: string | null = null;
  for (const match of normalise(text).matchAll(RUN)) {
    let run = match[0].trim();
    run = run.replace(/^[+*/^=)\s]+/, '').replace(/[-+*/^=(\s]+$/, '');
    // Balance a bracket the run cut off.
    const open = (run.match(/\(/g) ?? []).length - (run.match(/\)/g) ?? []).length;
    if (open > 0) run += ')'.repeat(open);
    if (open < 0) continue;
    if (!/\d/.test(run) || !/[-+*/^=]|\d\s*\(/.test(run.replace(/^-/, ''))) continue;
    if (!parses(run)) continue;
    if (!best || run.length > best.length) best = run;
  }
  return best;
}

/** LaTeX for one side or a whole equation, through mathjs ("2x" rather than "2~x"). */
export function toLatex(text: string): string {
  const tidy = text.replace(/\+\s*-/g, '- ').replace(/-\s*-/g, '+ ');
  return tidy
    .split('=')
    .map((side) =>
      parse(side)
        .toTex({ implicit: 'hide', parenthesis: 'auto' })
        .replace(/~\s*/g, '')
        .replace(/\{\s+/g, '{')
        .trim(),
    )
    .join(' = ');
}

function variablesOf(text: string): string[] {
  const names = new Set<string>();
  parse(text.replace('=', '-(') + (text.includes('=') ? ')' : '')).traverse((node: MathNode) => {
    if (node.type === 'SymbolNode' && 'name' in node) names.add(String(node.name));
  });
  return [...names].filter((n) => !(n in Math) && n !== 'e' && n !== 'pi');
}

function numeric(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (value && typeof value === 'object' && 'valueOf' in value) {
    const n = Number((value as { valueOf(): unknown }).valueOf());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= EPSILON * Math.max(1, Math.abs(a), Math.abs(b));
}

/** The value of an expression with no variables, or null. */
export function evaluateNumber(text: string, scope: Record<string, number> = {}): number | null {
  try {
    return numeric(evaluate(text, { ...scope }));
  } catch {
    return null;
  }
}

/** Whether two expressions are equal for every value of their variables (checked at sample points). */
export function equivalent(a: string, b: string): boolean | null {
  try {
    const names = [...new Set([...variablesOf(a), ...variablesOf(b)])];
    const points = names.length === 0 ? 1 : 6;
    for (let i = 0; i < points; i++) {
      const scope = Object.fromEntries(names.map((n, j) => [n, 1.37 + i * 0.71 + j * 2.13]));
      const x = evaluateNumber(a, scope);
      const y = evaluateNumber(b, scope);
      if (x === null || y === null) return null;
      if (!close(x, y)) return false;
    }
    return true;
  } catch {
    return null;
  }
}

/** Whether `variable = value` makes the equation true. */
export function satisfies(equation: string, variable: string, value: number): boolean | null {
  const [left, right] = equation.split('=');
  if (right === undefined) return null;
  const l = evaluateNumber(left!, { [variable]: value });
  const r = evaluateNumber(right, { [variable]: value });
  if (l === null || r === null) return null;
  return close(l, r);
}

function amount(step: MathstepsStep): string {
  const args = step.newEquation?.rightNode.args;
  const last = args?.at(-1)?.toString();
  return last ? `$${toLatex(last)}$` : 'the same number';
}

const REASONS: Record<string, string> = {
  SIMPLIFY_ARITHMETIC: 'Work out the arithmetic',
  SIMPLIFY_LEFT_SIDE: 'Tidy up the left side',
  SIMPLIFY_RIGHT_SIDE: 'Tidy up the right side',
  SIMPLIFY_FRACTION: 'Simplify the fraction',
  ADD_FRACTIONS: 'Add the fractions',
  COMMON_DENOMINATOR: 'Give the fractions a common denominator',
  COMBINE_NUMERATORS: 'Add the tops; the bottom stays the same',
  MULTIPLY_FRACTIONS: 'Multiply the tops together and the bottoms together',
  CANCEL_TERMS: 'Cancel the common factors',
  COLLECT_AND_COMBINE_LIKE_TERMS: 'Collect the like terms',
  COLLECT_LIKE_TERMS: 'Group the like terms together',
  ADD_POLYNOMIAL_TERMS: 'Add the like terms',
  DISTRIBUTE: 'Expand the brackets',
  SWAP_SIDES: 'Swap the sides so the unknown is on the left',
  FACTOR_DIFFERENCE_OF_SQUARES: 'Factor the difference of two squares',
  FACTOR_SUM_PRODUCT_RULE:
    'Factor: find two numbers that multiply to the last term and add to the middle one',
  FACTOR_PERFECT_SQUARE: 'Factor the perfect square',
  FIND_ROOTS: 'Set each factor equal to zero',
  REMOVE_MULTIPLYING_BY_ONE: 'Multiplying by one changes nothing',
  REMOVE_ADDING_ZERO: 'Adding zero changes nothing',
  RESOLVE_DOUBLE_MINUS: 'Two minus signs make a plus',
};

function reasonFor(step: MathstepsStep): string {
  switch (step.changeType) {
    case 'SUBTRACT_FROM_BOTH_SIDES':
      return `Subtract ${amount(step)} from both sides`;
    case 'ADD_TO_BOTH_SIDES':
      return `Add ${amount(step)} to both sides`;
    case 'DIVIDE_FROM_BOTH_SIDES':
      return `Divide both sides by ${amount(step)}`;
    case 'MULTIPLY_TO_BOTH_SIDES':
    case 'MULTIPLY_BOTH_SIDES_BY_INVERSE_FRACTION':
    case 'MULTIPLY_BOTH_SIDES_BY_NEGATIVE_ONE':
      return `Multiply both sides by ${amount(step)}`;
  }
  const known = REASONS[step.changeType];
  if (known) return known;
  const words = step.changeType.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "x = [-2, -3]" → the roots. */
function roots(text: string): { variable: string; values: number[] } | null {
  const match = /^\s*([a-z])\s*=\s*\[(.*)\]\s*$/.exec(text);
  if (match) {
    const values = match[2]!.split(',').map((v) => evaluateNumber(v));
    if (values.some((v) => v === null)) return null;
    return { variable: match[1]!, values: values as number[] };
  }
  const single = /^\s*([a-z])\s*=\s*([^=]+)$/.exec(text);
  if (!single) return null;
  const value = evaluateNumber(single[2]!);
  return value === null ? null : { variable: single[1]!, values: [value] };
}

function rootsLatex(variable: string, values: number[]): string {
  return values.map((v) => `${variable} = ${toLatex(String(v))}`).join(' \\text{ or } ');
}

const OPERATIONS: Record<string, Operation> = {
  SUBTRACT_FROM_BOTH_SIDES: 'subtract',
  ADD_TO_BOTH_SIDES: 'add',
  DIVIDE_FROM_BOTH_SIDES: 'divide',
  MULTIPLY_TO_BOTH_SIDES: 'multiply',
  MULTIPLY_BOTH_SIDES_BY_INVERSE_FRACTION: 'multiply',
  MULTIPLY_BOTH_SIDES_BY_NEGATIVE_ONE: 'multiply',
};

/** Steps that only tidy what the step before wrote: never a step of their own for a student. */
const TRIVIAL = new Set([
  'REMOVE_MULTIPLYING_BY_ONE',
  'REMOVE_ADDING_ZERO',
  'REMOVE_EXPONENT_BY_ONE',
  'REMOVE_EXPONENT_BASE_ONE',
  'REMOVE_MULTIPLYING_BY_NEGATIVE_ONE',
  'RESOLVE_DOUBLE_MINUS',
  'DIVISION_BY_ONE',
  'DIVISION_BY_NEGATIVE_ONE',
  'MULTIPLY_BY_ZERO',
  'REDUCE_EXPONENT_BY_ZERO',
  'REDUCE_ZERO_NUMERATOR',
  'ADD_COEFFICIENT_OF_ONE',
  'ADD_EXPONENT_OF_ONE',
  'UNARY_MINUS_TO_NEGATIVE_ONE',
  'REARRANGE_COEFF',
  'SIMPLIFY_SIGNS',
  'CANCEL_MINUSES',
]);

/** Equation steps that work out a side after an operation: one "work out each side" step. */
const TIDY_EQUATION = new Set([
  ...TRIVIAL,
  'SIMPLIFY_LEFT_SIDE',
  'SIMPLIFY_RIGHT_SIDE',
  'SIMPLIFY_ARITHMETIC',
  'SIMPLIFY_FRACTION',
  'COLLECT_AND_COMBINE_LIKE_TERMS',
  'CANCEL_TERMS',
  'SIMPLIFY_TERMS',
  'MULTIPLY_FRACTIONS',
  'ADD_FRACTIONS',
]);

interface Draft extends MathStep {
  changeType: string;
  ascii: string;
}

/**
 * The engine's steps as a student writes them: an operation on both sides is one step, the
 * working-out after it another (its tidy-ups merged), and the last operation goes straight to the
 * answer, so `2x + 3 = 11` takes 3 steps rather than mathsteps' 6.
 */
function equationSteps(problem: string, raw: MathstepsStep[]): Draft[] | null {
  const drafts: Draft[] = [];
  for (const step of raw) {
    const ascii = step.newEquation?.ascii();
    if (!ascii) return null;
    const last = drafts.at(-1);
    const operation = OPERATIONS[step.changeType];
    if (last && TRIVIAL.has(step.changeType)) {
      last.ascii = ascii;
      continue;
    }
    if (!operation && TIDY_EQUATION.has(step.changeType)) {
      if (last?.changeType === 'TIDY') {
        last.reason = 'Work out each side';
        last.ascii = ascii;
        continue;
      }
      drafts.push({
        changeType: 'TIDY',
        reason: reasonFor(step),
        ascii,
        latex: '',
        written: last?.ascii ?? problem,
      });
      continue;
    }
    drafts.push({
      changeType: step.changeType,
      reason: reasonFor(step),
      ascii,
      latex: '',
      ...(operation ? { operation: { kind: operation, amount: amountText(step) } } : {}),
    });
  }
  // The last operation goes straight to the answer: "divide both sides by 2: x = 4".
  const tail = drafts.at(-1);
  const before = drafts.at(-2);
  if (tail?.changeType === 'TIDY' && before && OPERATIONS[before.changeType]) {
    before.written = before.ascii;
    before.ascii = tail.ascii;
    drafts.pop();
  }
  return drafts;
}

function amountText(step: MathstepsStep): string {
  return step.newEquation?.rightNode.args?.at(-1)?.toString() ?? '';
}

function solveEquation(problem: string): Worked | null {
  const raw = mathsteps.solveEquation(problem);
  if (raw.length === 0) return null;
  const drafts = equationSteps(problem, raw);
  if (!drafts) return null;
  const steps: MathStep[] = drafts.map(({ changeType, ...step }) => {
    const found = changeType === 'FIND_ROOTS' ? roots(step.ascii) : null;
    return {
      ...step,
      latex: found ? rootsLatex(found.variable, found.values) : toLatex(step.ascii),
    };
  });
  const last = raw.at(-1)!.newEquation!.ascii();
  const answer = roots(last);
  if (!answer || answer.values.length === 0) return null;
  // Never teach what the engine got wrong: every solution must make the equation true.
  if (!answer.values.every((v) => satisfies(problem, answer.variable, v) === true)) return null;
  return {
    kind: 'equation',
    problem,
    problemLatex: toLatex(problem),
    steps,
    answerLatex: rootsLatex(answer.variable, answer.values),
    variable: answer.variable,
    solutions: answer.values,
  };
}

/** The engine's few steps that hide the working a student needs: shown as their own steps. */
function opened(raw: MathstepsStep[]): MathstepsStep[] {
  const out: MathstepsStep[] = [];
  for (const step of raw) {
    if (step.changeType === 'ADD_FRACTIONS' && step.substeps.some((s) => s.newNode))
      out.push(...step.substeps.filter((s) => s.newNode));
    else out.push(step);
  }
  return out;
}

/** Steps of an expression: the common denominator shown on its own, tidy-ups merged. */
function expressionSteps(raw: MathstepsStep[]): MathStep[] {
  const steps: (MathStep & { changeType: string })[] = [];
  for (const step of opened(raw)) {
    const ascii = step.newNode!.toString();
    const last = steps.at(-1);
    const fractions = ['MULTIPLY_DENOMINATORS', 'MULTIPLY_NUMERATORS'].includes(step.changeType);
    const adding =
      step.changeType === 'ADD_NUMERATORS' && last?.changeType === 'COMBINE_NUMERATORS';
    if (
      last &&
      (TRIVIAL.has(step.changeType) || fractions || adding || last.changeType === step.changeType)
    ) {
      last.ascii = ascii;
      last.latex = toLatex(ascii);
      continue;
    }
    steps.push({
      changeType: step.changeType,
      reason: reasonFor(step),
      ascii,
      latex: toLatex(ascii),
    });
  }
  return steps.map(({ changeType: _type, ...step }) => step);
}

const DECIMAL_SUM = /^\s*\d*\.?\d+(?:\s*[-+]\s*\d*\.?\d+)+\s*$/;

/**
 * A sum of decimals worked like one of fractions: first the same number of decimal places (the
 * common denominator: 0.5 + 0.25 → 0.50 + 0.25), then the digits added in hundredths (50 + 25 = 75).
 */
function decimalSum(problem: string): Worked | null {
  if (!DECIMAL_SUM.test(problem) || !problem.includes('.')) return null;
  const numbers = problem.match(/\d*\.?\d+/g)!;
  const signs = problem.match(/[-+]/g) ?? [];
  const places = Math.max(...numbers.map((n) => n.split('.')[1]?.length ?? 0));
  if (places > 6) return null;
  const padded = numbers.map((n) => {
    const [whole, fraction = ''] = n.split('.');
    return `${whole || '0'}.${fraction.padEnd(places, '0')}`;
  });
  const written = (parts: string[]) =>
    parts.map((n, i) => (i === 0 ? n : `${signs[i - 1]} ${n}`)).join(' ');
  const counts = padded.map((n) => Number(n.replace('.', '')));
  const total = counts.reduce((sum, n, i) =>
    i === 0 ? n : signs[i - 1] === '-' ? sum - n : sum + n,
  );
  const final = String(Number((total / 10 ** places).toFixed(places)));
  if (equivalent(problem, final) !== true) return null;
  const unit = PLACES[10 ** places] ?? `parts of $${10 ** places}$`;
  const steps: MathStep[] = [];
  if (padded.some((n, i) => n !== numbers[i]))
    steps.push({
      reason: `Give every number the same number of decimal places, so the points line up`,
      latex: written(padded).replace(/\s/g, ''),
      ascii: written(padded),
    });
  steps.push({
    reason: `Count in ${unit}: $${written(counts.map(String))} = ${total}$ ${unit}`,
    latex: final,
    ascii: final,
  });
  return {
    kind: 'expression',
    problem,
    problemLatex: written(numbers).replace(/\s/g, ''),
    steps,
    answerLatex: final,
  };
}

function simplifyProblem(problem: string): Worked | null {
  const decimal = decimalSum(problem);
  if (decimal) return decimal;
  let raw: MathstepsStep[] = [];
  try {
    raw = mathsteps.simplifyExpression(problem);
  } catch {
    raw = [];
  }
  raw = raw.filter((s) => s.newNode);
  const steps = expressionSteps(raw);
  let final = raw.at(-1)?.newNode?.toString();
  if (!final) {
    // Nothing for the step engine to do: a plain calculation mathjs can still work out.
    const value = evaluateNumber(problem);
    if (value === null) return null;
    final = String(Number(value.toPrecision(12)));
    if (final === problem.replace(/\s/g, '')) return null;
    steps.push({ reason: 'Work out the arithmetic', latex: toLatex(final), ascii: final });
  }
  if (equivalent(problem, final) !== true) return null;
  return {
    kind: 'expression',
    problem,
    problemLatex: toLatex(problem),
    steps,
    answerLatex: toLatex(final),
  };
}

const COMPARE =
  /\b(bigger|larger|greater|more|smaller|less|lower|higher)\b|\bwhich is\b|\bcompare\b/i;
const FRACTION_DECIMAL_OR_WHOLE = /(\d+)\s*\/\s*(\d+)|\d*\.\d+|\b\d+\b(?![./]\d)/g;

/** The fractions, decimals and whole numbers in a text, as written ("7/8", "0.7", "2"). */
export function numbersIn(text: string): string[] {
  return [...normalise(text).matchAll(FRACTION_DECIMAL_OR_WHOLE)].map((m) =>
    m[2] === undefined ? m[0] : `${m[1]}/${m[2]}`,
  );
}

/**
 * "Is 7/8 bigger than 5/6?" → "7/8 vs 5/6": two numbers to compare, at least one a fraction or a
 * decimal ("Is 0.7 bigger than 2/3?" → "0.7 vs 2/3").
 */
export function findComparison(text: string): string | null {
  const plain = normalise(text);
  if (!COMPARE.test(plain) || plain.includes('=')) return null;
  const found = numbersIn(plain);
  if (found.length !== 2 || found.every((n) => /^\d+$/.test(n))) return null;
  return `${found[0]} vs ${found[1]}`;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function fractionTex(top: number, bottom: number): string {
  return bottom === 1 ? String(top) : `\\frac{${top}}{${bottom}}`;
}

interface Side {
  top: number;
  bottom: number;
  /** As written, in LaTeX ("\\frac{7}{8}", "0.7"). */
  tex: string;
  /** A decimal, written as a fraction in tenths, hundredths… before it is compared. */
  decimal: boolean;
}

function side(text: string): Side | null {
  const fraction = /^(\d+)\/(\d+)$/.exec(text);
  if (fraction) {
    const [top, bottom] = [Number(fraction[1]), Number(fraction[2])];
    return { top, bottom, tex: fractionTex(top, bottom), decimal: false };
  }
  const decimal = /^(\d*)\.(\d{1,6})$/.exec(text);
  if (decimal) {
    const bottom = 10 ** decimal[2]!.length;
    const top = Number(decimal[1] || '0') * bottom + Number(decimal[2]);
    return { top, bottom, tex: text.startsWith('.') ? `0${text}` : text, decimal: true };
  }
  if (/^\d+$/.test(text)) return { top: Number(text), bottom: 1, tex: text, decimal: false };
  return null;
}

const PLACES: Record<number, string> = { 10: 'tenths', 100: 'hundredths', 1000: 'thousandths' };

/**
 * A comparison worked with a common denominator: 7/8 = 21/24 and 5/6 = 20/24, so 7/8 is bigger. A
 * decimal is first written as a fraction (0.7 = 7/10), then compared the same way.
 */
function compareProblem(problem: string): Worked | null {
  const parsed = problem.split(' vs ').map(side);
  if (parsed.length !== 2 || parsed.some((p) => p === null)) return null;
  const [p, q] = parsed as [Side, Side];
  const [n1, d1, n2, d2] = [p.top, p.bottom, q.top, q.bottom];
  if (![n1, d1, n2, d2].every((v) => Number.isSafeInteger(v)) || d1 === 0 || d2 === 0) return null;
  if (Math.max(d1, d2) > 1_000_000) return null;
  const common = (d1 * d2) / gcd(d1, d2);
  const t1 = n1 * (common / d1);
  const t2 = n2 * (common / d2);
  const a = p.tex;
  const b = q.tex;
  // What is compared over the common denominator: decimals as their fractions.
  const fa = fractionTex(n1, d1);
  const fb = fractionTex(n2, d2);
  const sign = t1 > t2 ? '>' : t1 < t2 ? '<' : '=';
  const steps: MathStep[] = [];
  const decimals = [p, q].filter((s) => s.decimal);
  if (decimals.length > 0)
    steps.push({
      reason: `Write ${decimals.length === 1 ? 'the decimal as a fraction' : 'the decimals as fractions'}: ${decimals
        .map((s) => `$${s.tex}$ is $${s.top}$ ${PLACES[s.bottom] ?? `parts of $${s.bottom}$`}`)
        .join(' and ')}`,
      latex: decimals
        .map((s) => `${s.tex} = ${fractionTex(s.top, s.bottom)}`)
        .join(' \\quad\\text{and}\\quad '),
    });
  const commonLatex = `${fa} = \\frac{${t1}}{${common}} \\quad\\text{and}\\quad ${fb} = \\frac{${t2}}{${common}}`;
  if (d1 === d2)
    steps.push({
      reason: `Both fractions already have the same denominator, $${common}$`,
      latex: `${fa} \\quad\\text{and}\\quad ${fb}`,
    });
  else
    steps.push({
      reason: `Write both fractions over a common denominator: $${common}$ is the smallest number that $${d1}$ and $${d2}$ both go into`,
      latex: commonLatex,
    });
  steps.push({
    reason: `Now the pieces are the same size, so compare the tops: $${t1} ${sign} ${t2}$`,
    latex: `\\frac{${t1}}{${common}} ${sign} \\frac{${t2}}{${common}}`,
  });
  const verdict =
    sign === '='
      ? `they are equal`
      : `$${sign === '>' ? a : b}$ is bigger than $${sign === '>' ? b : a}$`;
  const [s1, s2] = problem.split(' vs ') as [string, string];
  return {
    kind: 'comparison',
    verdict,
    problem,
    problemLatex: `${a} \\quad\\text{or}\\quad ${b}`,
    steps,
    answerLatex: `${a} ${sign} ${b}`,
    compared: { sides: [s1, s2], latex: [a, b], common, tops: [t1, t2], commonLatex },
  };
}

/**
 * The student's answer to a comparison: "yes"/"no" to "Is a bigger than b?", or the side they name
 * ("7/8", "7/8 is bigger", "5/6 is smaller", "they are equal"). Right or wrong, or null when the
 * message is not an answer to it (a new question, other numbers).
 */
export function checkComparison(worked: Worked, asked: string, answer: string): boolean | null {
  const compared = worked.compared;
  if (worked.kind !== 'comparison' || !compared) return null;
  const text = normalise(answer).trim();
  const [t1, t2] = compared.tops;
  const truth = Math.sign(t1 - t2);
  const bigger = /\b(bigger|larger|greater|more|higher)\b|>/;
  const smaller = /\b(smaller|less|lower|fewer)\b|</;
  // A new question ("Is 3/4 bigger than 5/7?") is not an answer.
  if (/^(is|are|which|what|compare|how)\b/.test(text) || text.endsWith('?')) return null;
  // Nor is a sum of them ("7/8 + 5/6").
  if (/[+*^]|\d\s*-\s*\d/.test(text)) return null;
  if (/\b(equal|same)\b/.test(text) && numbersIn(text).length === 0) return truth === 0;
  const yesNo = /^(yes|yeah|yep|yup|y|true|no|nope|nah|n|false)\b/.exec(text);
  const names = numbersIn(text);
  if (names.length === 0) {
    if (!yesNo) return null;
    const question = normalise(asked);
    if (!/^\s*(is|are)\b/.test(question.replace(/^[^a-z]*(so|then|ok|okay|hey|hi)\b[\s,]*/, '')))
      return null;
    const asksBigger = bigger.test(question) && !smaller.test(question);
    const asksSmaller = smaller.test(question) && !bigger.test(question);
    if (!asksBigger && !asksSmaller) return null;
    const yes = /^(yes|yeah|yep|yup|y|true)$/.test(yesNo[1]!);
    const holds = asksBigger ? truth > 0 : truth < 0;
    return yes === holds;
  }
  // The side the student names first, and whether they call it the bigger or the smaller one.
  const value = (n: string) => {
    const s = side(n);
    return s ? s.top / s.bottom : NaN;
  };
  const sides = compared.sides.map(value);
  if (names.some((n) => !sides.some((v) => close(v, value(n))))) return null;
  const named = close(value(names[0]!), sides[0]!) ? 0 : 1;
  if (names.length === 2 && /\b(equal|same)\b|=/.test(text)) return truth === 0;
  const callsSmaller = smaller.test(text) && !bigger.test(text);
  const saysFirst = (named === 0) !== callsSmaller;
  return truth !== 0 && saysFirst === truth > 0;
}

/** The worked solution of an equation or expression, checked; null when it cannot be solved here. */
export function solve(problem: string): Worked | null {
  try {
    if (problem.includes(' vs ')) return compareProblem(problem);
    return problem.includes('=') ? solveEquation(problem) : simplifyProblem(problem);
  } catch {
    return null;
  }
}

/** Whether a student's answer ("x = 4", "4", "5x - 4") is right for a worked problem. */
export function checkAnswer(worked: Worked, answer: string): boolean | null {
  const text = normalise(answer).trim();
  if (worked.kind === 'comparison') return null;
  if (worked.kind === 'equation') {
    const value = evaluateNumber(text.includes('=') ? text.split('=')[1]! : text);
    if (value === null) return null;
    return satisfies(worked.problem, worked.variable!, value);
  }
  const last = worked.steps.at(-1);
  if (!last) return null;
  return equivalent(worked.problem, text.includes('=') ? text.split('=')[1]! : text);
}

/**
 * Whether a student's line ("2x = 8") has the same solutions as the equation being worked on: the
 * test of a correct step, whatever route it takes. Null when it cannot be told.
 */
export function sameSolutions(worked: Worked, line: string): boolean | null {
  if (worked.kind !== 'equation' || !worked.variable || !worked.solutions) return null;
  const sides = line.split('=');
  if (sides.length !== 2) return null;
  try {
    const names = variablesOf(line);
    if (names.length !== 1 || names[0] !== worked.variable) return null;
  } catch {
    return null;
  }
  const own = solve(line);
  if (own?.kind === 'equation' && own.solutions) {
    const theirs = [...new Set(own.solutions)].sort((a, b) => a - b);
    const ours = [...new Set(worked.solutions)].sort((a, b) => a - b);
    return theirs.length === ours.length && theirs.every((v, i) => close(v, ours[i]!));
  }
  // The engine cannot solve the line: it must hold at every solution and not everywhere.
  const v = worked.variable;
  for (const value of worked.solutions) {
    const holds = satisfies(line, v, value);
    if (holds !== true) return holds;
  }
  const elsewhere = satisfies(line, v, worked.solutions[0]! + 1.37);
  return elsewhere === null ? null : !elsewhere;
}

/** The step of `worked` (from `from` on) a student's line is: both sides match. */
export function matchingStep(worked: Worked, from: number, line: string): number | null {
  const [left, right] = line.split('=');
  for (let k = worked.steps.length - 1; k >= from; k--) {
    const ascii = worked.steps[k]!.ascii;
    if (!ascii?.includes('=') || ascii.includes('[')) continue;
    const [l, r] = ascii.split('=');
    if (equivalent(left!, l!) === true && equivalent(right!, r!) === true) return k;
  }
  return null;
}

export interface StepSlip {
  /** The step the student was making. */
  index: number;
  /** The side they worked out wrong, written out ("11 - 3"), what it is ("8") and what they wrote. */
  written: string;
  correct: string;
  wrote: string;
  /** The operation of that step, and what the student did instead when it shows. */
  operation?: { kind: Operation; amount: string };
  instead?: Operation;
}

const OPPOSITE: Record<Operation, Operation> = {
  add: 'subtract',
  subtract: 'add',
  multiply: 'divide',
  divide: 'multiply',
};

/** Which side of which step a wrong line got wrong, when one side matches a step (from `from`). */
export function stepSlip(worked: Worked, from: number, line: string): StepSlip | null {
  const student = line.split('=');
  if (student.length !== 2) return null;
  for (let k = from; k < worked.steps.length; k++) {
    const step = worked.steps[k]!;
    if (!step.written || !step.ascii?.includes('=')) continue;
    const result = step.ascii.split('=');
    const written = step.written.split('=');
    for (const [same, other] of [
      [0, 1],
      [1, 0],
    ] as const) {
      if (equivalent(student[same]!, result[same]!) !== true) continue;
      if (equivalent(student[other]!, result[other]!) !== false) continue;
      const operation = step.operation ?? worked.steps[k - 1]?.operation;
      const slip: StepSlip = {
        index: k,
        written: written[other]!.trim(),
        correct: result[other]!.trim(),
        wrote: student[other]!.trim(),
        ...(operation ? { operation } : {}),
      };
      const instead = operation ? OPPOSITE[operation.kind] : null;
      const amountValue = operation ? evaluateNumber(operation.amount) : null;
      const correct = evaluateNumber(slip.correct);
      const wrote = evaluateNumber(slip.wrote);
      if (instead && amountValue !== null && correct !== null && wrote !== null) {
        const undone = {
          add: correct - 2 * amountValue,
          subtract: correct + 2 * amountValue,
          multiply: correct / amountValue ** 2,
          divide: correct * amountValue ** 2,
        }[operation!.kind];
        if (close(undone, wrote)) slip.instead = instead;
      }
      return slip;
    }
  }
  return null;
}
