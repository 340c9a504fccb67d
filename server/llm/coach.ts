/**
 * The offline coach: what answers the student when no model is connected. It speaks to the student,
 * never about configuration (that goes to the start-up log, `/api/v1/health` and the README). It
 * tutors maths step by step with the step engine — a hint and a question first, then one step with
 * its reason each time the student asks, until the answer — checks the student's own answers, and
 * answers everything else honestly with what it can do and a plan from the student's goals.
 */
import { type Subject, SUBJECT_LABELS } from 'ayah-coach/rules';

import type { Worked } from './maths';
import {
  checkAnswer,
  checkComparison,
  findComparison,
  findMaths,
  matchingStep,
  normalise,
  sameSolutions,
  solve,
  stepSlip,
  toLatex,
} from './maths';
import type { StudentContext } from './prompt';
import { goalLine } from './prompt';
import type { Turn } from './turn';
import { wordProblem } from './word-problems';

/** Said once a session, and whenever the coach cannot help with the question itself. */
export const OFFLINE_LINE =
  "I'm Ayah's practice helper. The full tutor isn't connected here yet, so for new topics and big questions, please ask your teacher too.";

const CAN_DO = [
  'Here is what I *can* do with you right now:',
  '',
  '- **Maths, step by step**: send me an equation or a sum, like $2x + 3 = 11$, $\\frac{1}{2} + \\frac{1}{3}$ or "15 percent of 80". I give you a hint first, then one step at a time when you say *next step*.',
  '- **Word problems** with one or two steps, like *Sam has 3 apples and buys 5 more. How many now?*: we turn the story into a sum together.',
  '- **Check your answer**: tell me what you got (like $x = 4$) and I will check it.',
  '- **Plan your study** from your weekly goals.',
].join('\n');

const NEXT =
  /\b(next( step)?|show( me)?|go on|continue|another step|i'?m stuck|stuck|i don'?t know|idk|help me|what now|then what)\b/i;
const ALL =
  /\b(all( the)? steps|whole (solution|answer)|full (solution|answer)|just (tell|give) me|the answer)\b/i;
const GREETING =
  /^\s*(hi|hello|hey|hiya|good (morning|afternoon|evening)|yo)\b[\s!.,]*(ayah)?[\s!.]*$/i;
/** A message that is only an answer: "x = 4", "4", "-3/2", "5x - 4". */
const ANSWER_ONLY =
  /^\s*(?:(?:i got|it'?s|is it|answer:?)\s*)?(?:[xyn]\s*=\s*)?[-+*/^()\d\s.xyn]*\d[-+*/^()\d\s.xyn]*[?!.]?\s*$/i;

/** A message that is only a line of working: "2x = 8", "so 2x = 11 - 3". */
const LINE_ONLY =
  /^\s*(?:(?:i got|so|then|is it|it'?s|next:?)\s*)?[-+*/^()\d\s.xyn]*=[-+*/^()\d\s.xyn]*[?!.]?\s*$/i;

const STEP_MARK = /\*\*Step (\d+) of (\d+)\*\*/g;

/** How the coach begins a reply that checks the student's answer or step (not a new problem). */
const VERDICT = /^(Yes, that's|Not quite|That's the answer I showed)/;
const RIGHT = "Yes, that's right";
export const COPIED = "That's the answer I showed you — try the next one yourself!";

interface Progress {
  worked: Worked;
  /** How many steps the coach has shown (or the student has made) since the problem was asked. */
  shown: number;
  /** Whether the coach has shown the answer (not just agreed with the student's). */
  revealed: boolean;
  /** The student's message that asked it ("Is 7/8 bigger than 5/6?"). */
  asked: string;
}

/** The problem this conversation is working on, from the stored turns, and how far it has got. */
function progress(history: Turn[]): Progress | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i]!;
    if (turn.role !== 'user') continue;
    const problem = problemIn(turn.content);
    if (!problem || (ANSWER_ONLY.test(turn.content) && answersEarlier(history, i))) continue;
    // A line or answer the coach checked belongs to the problem before it.
    const reply = history[i + 1];
    if (reply?.role === 'assistant' && VERDICT.test(reply.content) && answersEarlier(history, i))
      continue;
    const worked = solve(problem);
    if (!worked) return null;
    let shown = 0;
    let revealed = false;
    for (const later of history.slice(i + 1))
      if (later.role === 'assistant') {
        for (const match of later.content.matchAll(STEP_MARK))
          shown = Math.max(shown, Number(match[1]));
        if (later.content.includes('**Answer:**') && !later.content.startsWith(RIGHT))
          revealed = true;
      }
    return { worked, shown, revealed, asked: turn.content };
  }
  return null;
}

/** Whether an answer-only turn answers an earlier problem (rather than starting one). */
function answersEarlier(history: Turn[], i: number): boolean {
  return history.slice(0, i).some((t) => t.role === 'user' && problemIn(t.content) !== null);
}

/** The maths a message asks about: written out, or the sum of a simple word problem. */
function problemIn(text: string): string | null {
  return findComparison(text) ?? findMaths(text) ?? wordProblem(text)?.expression ?? null;
}

function stepText(worked: Worked, index: number): string {
  const step = worked.steps[index]!;
  // An operation that goes straight to the answer shows the line it works out too.
  const latex =
    step.operation && step.written
      ? `${toLatex(step.written)} \\quad\\Rightarrow\\quad ${step.latex}`
      : step.latex;
  return `**Step ${index + 1} of ${worked.steps.length}**: ${step.reason}.\n\n$$${latex}$$`;
}

function answerText(worked: Worked): string {
  const check =
    worked.kind === 'equation'
      ? 'Check it yourself: put it back into the first equation and see that both sides match.'
      : worked.kind === 'comparison'
        ? `So ${worked.verdict ?? 'that is the answer'}. With the same denominator, the bigger top means the bigger fraction.`
        : 'Can you see why each step keeps the value the same?';
  return `**Answer:** $${worked.answerLatex}$\n\n${check} Send me another problem whenever you like!`;
}

/** One like it, for the student to try alone. */
function another(worked: Worked): string {
  if (worked.kind === 'equation') return '$3x + 5 = 20$';
  if (worked.kind === 'comparison') return 'is $\\frac{3}{4}$ bigger than $\\frac{5}{7}$?';
  return '$\\frac{2}{5} + \\frac{1}{3}$';
}

const VERBS: Record<Worked['kind'], string> = {
  equation: 'solve this',
  expression: 'work out this',
  comparison: 'compare these two',
};

function lower(reason: string): string {
  return `${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
}

function firstHint(worked: Worked): string {
  const first = worked.steps[0]!;
  const verb = VERBS[worked.kind];
  return [
    `Let's ${verb} together:`,
    '',
    `$$${worked.problemLatex}$$`,
    '',
    `**Hint:** ${lower(first.reason)}. What do you get when you do that?`,
    '',
    worked.kind === 'comparison'
      ? "Have a go on paper, then say *next step* and I'll show you one step at a time."
      : "Send me your answer and I'll check it, or say *next step* and I'll show you one step at a time.",
  ].join('\n');
}

function nextSteps(state: Progress, all: boolean): string {
  const { worked, shown } = state;
  if (shown >= worked.steps.length) return answerText(worked);
  const end = all ? worked.steps.length : shown + 1;
  const parts: string[] = [];
  for (let i = shown; i < end; i++) parts.push(stepText(worked, i));
  if (end >= worked.steps.length) parts.push(answerText(worked));
  else parts.push('What do you think the next step is? Say *next step* to see it.');
  return parts.join('\n\n');
}

function checked(state: Progress, answer: string): string | null {
  const right = checkAnswer(state.worked, answer);
  if (right === null) return null;
  if (right && state.revealed)
    return `${COPIED} Send me a problem like it, such as ${another(state.worked)}, and I'll start you off with a hint.`;
  if (right) {
    // A middle line of a sum ("9/12 + 8/12") is a right step, not yet the answer.
    const plain = (text: string) => normalise(text).replace(/[\s()]/g, '');
    const steps = state.worked.steps;
    const k = steps.findIndex((step) => step.ascii && plain(step.ascii) === plain(answer));
    if (state.worked.kind === 'expression' && k >= 0 && k < steps.length - 1)
      return [
        `Yes, that's the next step! ✅${k + 1 > state.shown ? ` That's **Step ${k + 1} of ${steps.length}** done.` : ''}`,
        '',
        `**Hint:** ${lower(steps[k + 1]!.reason)}. What do you get?`,
      ].join('\n');
    return `${RIGHT} — well done! 🎉\n\n${answerText(state.worked)}`;
  }
  const next = state.worked.steps[state.shown];
  return [
    'Not quite — good try, though. Mistakes are how we learn.',
    '',
    next
      ? `**Hint:** ${next.reason.charAt(0).toLowerCase()}${next.reason.slice(1)}. Try again, or say *next step*.`
      : 'Look back over the steps above and try once more.',
  ].join('\n');
}

/** The student's answer to the comparison under way ("yes", "7/8 is bigger"), checked. */
function comparisonChecked(state: Progress, answer: string): string | null {
  const { worked } = state;
  const right = checkComparison(worked, state.asked, answer);
  if (right === null) return null;
  if (right && state.revealed)
    return `${COPIED} Try one like it, such as ${another(worked)}, and I'll start you off with a hint.`;
  if (right) return `${RIGHT} — well done! 🎉\n\n${answerText(worked)}`;
  const { common, tops, latex } = worked.compared!;
  const [big, small] = tops[0] >= tops[1] ? [0, 1] : [1, 0];
  return [
    tops[0] === tops[1]
      ? `Not quite — good try, though. They are equal: over the common denominator $${common}$ both are $\\frac{${tops[0]}}{${common}}$.`
      : `Not quite — good try, though. $${latex[big]}$ is bigger than $${latex[small]}$. Over the common denominator $${common}$, the pieces are the same size, and $${tops[big]}$ of them is more than $${tops[small]}$:`,
    '',
    `$$${worked.compared!.commonLatex}$$`,
    '',
    `**Answer:** $${worked.answerLatex}$`,
    '',
    `Try another one yourself: ${another(worked)}`,
  ].join('\n');
}

/** A student's own line of working, checked against the equation under way. */
function lineChecked(state: Progress, line: string): string | null {
  const { worked, shown } = state;
  const same = sameSolutions(worked, line);
  if (same === null) return null;
  const total = worked.steps.length;
  if (same) {
    const k = matchingStep(worked, 0, line);
    const next = worked.steps[(k ?? shown - 1) + 1];
    return [
      `Yes, that's the next step! ✅${k !== null && k + 1 > shown ? ` That's **Step ${k + 1} of ${total}** done.` : ''}`,
      '',
      `$$${toLatex(line)}$$`,
      '',
      next
        ? `What comes next? Send me your next line, or say *next step*.`
        : 'You are nearly there: what does that make the answer?',
    ].join('\n');
  }
  const slip = stepSlip(worked, Math.max(0, shown - 1), line);
  if (slip) {
    const op = slip.operation;
    const opStep = worked.steps[slip.index]!.operation
      ? worked.steps[slip.index]!
      : worked.steps[slip.index - 1];
    const doing = op && opStep ? `We ${lower(opStep.reason)}, and ` : '';
    const instead =
      op && slip.instead
        ? ` It looks like you ${PAST[slip.instead]} $${toLatex(op.amount)}$ instead.`
        : '';
    return [
      `Not quite — good try, though. ${doing}$${toLatex(slip.written)}$ is $${toLatex(slip.correct)}$, not $${toLatex(slip.wrote)}$.${instead}`,
      '',
      'Try that line again, or say *next step*.',
    ].join('\n');
  }
  const next = worked.steps[shown];
  return [
    `Not quite — that line doesn't have the same answer as $${worked.problemLatex}$. Good try, though.`,
    '',
    next
      ? `**Hint:** ${lower(next.reason)}. Try again, or say *next step*.`
      : 'Look back over the steps above and try once more.',
  ].join('\n');
}

const PAST = {
  add: 'added',
  subtract: 'subtracted',
  multiply: 'multiplied by',
  divide: 'divided by',
};

function interestsText(interests: readonly string[]): string | null {
  const names = interests.map((s) => SUBJECT_LABELS[s as Subject] ?? s);
  if (names.length === 0) return null;
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}

/** Study-plan suggestions from the goals: the least-done first. */
function plan(student: StudentContext): string[] {
  const lines: string[] = [];
  if (student.goals.length > 0) {
    const open = student.goals
      .filter((g) => g.total_progress < 100)
      .sort((a, b) => a.total_progress - b.total_progress);
    lines.push('**Your goals this week:**', '');
    for (const goal of student.goals) lines.push(`- ${goalLine(goal)}`);
    lines.push('');
    if (open.length === 0)
      lines.push(
        'Every goal is complete — amazing work! 🎉 You could set a new one on the [Goals page](/goal).',
      );
    else {
      const first = open[0]!;
      const subject = SUBJECT_LABELS[first.subject] ?? first.subject;
      lines.push(
        `**A plan for today:** spend 15 minutes on ${subject} first (it is furthest from its goal), then log what you did on the [Goals page](/goal). Small steps every day add up!`,
      );
    }
  } else {
    const liked = interestsText(student.interests);
    lines.push(
      liked
        ? `You told me you like ${liked}. A weekly goal helps: try setting one for ${liked.split(/,| and /)[0]} on the [Goals page](/goal) — for example 10 problems or 60 minutes this week.`
        : 'A weekly goal helps you keep going: set one on the [Goals page](/goal) — for example 10 problems or 60 minutes this week.',
    );
  }
  return lines;
}

/** The offline coach's reply to `question`, from the stored turns before it. */
export function coachAnswer(student: StudentContext, question: string, history: Turn[]): string {
  const firstTurn = !history.some((t) => t.role === 'assistant');
  const opening = firstTurn ? [`Hi ${student.name}! ${OFFLINE_LINE}`, ''] : [];
  const state = progress(history);

  if (state && !firstTurn) {
    if (ALL.test(question)) return nextSteps(state, true);
    if (state.worked.kind === 'comparison') {
      const verdict = comparisonChecked(state, question);
      if (verdict) return verdict;
    }
    const problem = findMaths(question);
    // A bare number ("8") is an answer too.
    if (ANSWER_ONLY.test(question) && (problem || /\d/.test(question))) {
      const verdict = checked(state, question);
      if (verdict) return verdict;
    }
    if (problem && LINE_ONLY.test(question) && !ANSWER_ONLY.test(question)) {
      const verdict = lineChecked(state, problem);
      if (verdict) return verdict;
    }
    if (!problem && NEXT.test(question)) return nextSteps(state, false);
  }

  const comparison = findComparison(question);
  const compared = comparison ? solve(comparison) : null;
  if (compared) return [...opening, firstHint(compared)].join('\n');

  // A story first becomes its sum, with the words that say which operation, then is tutored as one.
  const story = findMaths(question) ? null : wordProblem(question);
  if (story) {
    const worked = solve(story.expression);
    if (worked && worked.steps.length > 0)
      return [
        ...opening,
        `Let's turn the story into maths. The numbers are in the story, and ${story.reading}.`,
        '',
        firstHint(worked),
      ].join('\n');
  }

  const problem = findMaths(question);
  if (problem) {
    const worked = solve(problem);
    if (worked && worked.steps.length > 0) return [...opening, firstHint(worked)].join('\n');
    return [
      ...opening,
      "I couldn't work that one out step by step, so I won't guess. Could you write it as one equation or sum, like $3x - 5 = 10$? Your teacher can help with problems of other kinds.",
    ].join('\n');
  }

  if (GREETING.test(question))
    return [`Hi ${student.name}! 👋 ${OFFLINE_LINE}`, '', CAN_DO, '', ...plan(student)].join('\n');

  return [
    `${firstTurn ? `Hi ${student.name}! ` : ''}That's a good question. ${OFFLINE_LINE} I'd rather not guess an answer and teach you something wrong.`,
    '',
    CAN_DO,
    '',
    ...plan(student),
  ].join('\n');
}
