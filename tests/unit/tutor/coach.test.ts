/**
 * The offline coach on 20 typical middle-school questions: it never talks configuration, gives a hint
 * and a question before any answer, reaches a correct answer step by step (checked with mathjs, not by
 * string), writes LaTeX that KaTeX renders, and answers everything else honestly.
 */
import katex from 'katex';
import { evaluate } from 'mathjs';
import { describe, expect, it } from 'vitest';

import { coachAnswer, OFFLINE_LINE } from '../../../server/llm/coach';
import type { Turn } from '../../../server/llm/model';
import type { StudentContext } from '../../../server/llm/prompt';

const student: StudentContext = {
  name: 'Ada',
  goals: [
    { subject: 'math', goal_type: 'problems_solved', target_value: 10, total_progress: 60 },
    { subject: 'science', goal_type: 'study_time', target_value: 60, total_progress: 10 },
  ],
  interests: ['math', 'history'],
  dashboardData: {},
  memories: [],
  now: new Date('2026-11-23T12:00:00Z'),
};

const CONFIG_WORDS = /AYAH_|environment|configur|\bmodels?\b|api key|endpoint|restart/i;

/** Every `$$…$$` and `$…$` formula in a reply. */
function formulas(text: string): string[] {
  const out: string[] = [];
  const rest = text.replace(/\$\$([^$]+)\$\$/g, (_, tex: string) => {
    out.push(tex);
    return '';
  });
  for (const match of rest.matchAll(/\$([^$]+)\$/g)) out.push(match[1]!);
  return out;
}

function expectRenders(text: string) {
  for (const tex of formulas(text))
    expect(() => katex.renderToString(tex, { throwOnError: true }), tex).not.toThrow();
}

/** LaTeX as mathjs reads it (only what the coach writes: fractions, \cdot, brackets). */
function fromLatex(tex: string): string {
  let s = tex.replace(/\\left|\\right/g, '').replace(/\\cdot/g, '*');
  while (/\\frac\{([^{}]*)\}\{([^{}]*)\}/.test(s))
    s = s.replace(/\\frac\{([^{}]*)\}\{([^{}]*)\}/g, '(($1)/($2))');
  return s.replace(/\{|\}/g, '');
}

/** Asks, then says "next step" until the answer; answers every reply and the answer's formula. */
function dialogue(question: string) {
  const history: Turn[] = [];
  const replies: string[] = [];
  let text = question;
  for (let i = 0; i < 16; i++) {
    const reply = coachAnswer(student, text, history);
    replies.push(reply);
    history.push({ role: 'user', content: text }, { role: 'assistant', content: reply });
    const answer = /\*\*Answer:\*\* \$([^$]+)\$/.exec(reply);
    if (answer) return { replies, answer: answer[1]! };
    text = 'next step';
  }
  throw new Error(`no answer for ${question}`);
}

const EQUATIONS: [string, string][] = [
  ['Can you help me solve 2x + 3 = 11?', '2x + 3 = 11'],
  ['Solve 5x - 7 = 3x + 9', '5x - 7 = 3x + 9'],
  ['solve 3(x - 2) = 12 please', '3(x - 2) = 12'],
  ['x/4 + 2 = 5', 'x/4 + 2 = 5'],
  ['Solve x^2 - 9 = 0', 'x^2 - 9 = 0'],
  ['How do I solve x² + 5x + 6 = 0?', 'x^2 + 5x + 6 = 0'],
];

const EXPRESSIONS: [string, string][] = [
  ['Simplify 2x + 3x - 4', '2x + 3x - 4'],
  ['Can you simplify 3(x + 2) + 4x?', '3(x + 2) + 4x'],
  ['What is 1/2 + 1/3?', '1/2 + 1/3'],
  ['what is 2/3 × 3/4', '2/3 * 3/4'],
  ['What is 3/4 of 20?', '3/4 * 20'],
  ['What is 15% of 80?', '0.15 * 80'],
  ['What is 12.5 percent of 40?', '0.125 * 40'],
  ['What is 144 ÷ 12 - 3?', '144 / 12 - 3'],
];

const OTHERS = [
  'hi',
  'When did World War 2 end?',
  'What is photosynthesis?',
  'Can you help me with my English essay?',
  'Sam has 3 times as many apples as Jo. Together they have 24 apples. How many does Jo have?',
  'Who was the first president of the United States?',
];

describe('the offline coach', () => {
  it('covers 20 typical questions', () => {
    expect(EQUATIONS.length + EXPRESSIONS.length + OTHERS.length).toBe(20);
  });

  it.each(EQUATIONS)('solves %s step by step, hint first, answer checked', (question, equation) => {
    const { replies, answer } = dialogue(question);
    expect(replies.length).toBeGreaterThan(2);
    expect(replies[0]).toContain('**Hint:**');
    expect(replies[0]).toMatch(/\?/);
    expect(replies[0]).not.toContain('Answer');
    expect(replies[0]).toContain(OFFLINE_LINE);
    for (const reply of replies) {
      expect(reply).not.toMatch(CONFIG_WORDS);
      expectRenders(reply);
    }
    expect(replies.slice(1, -1).join('\n')).toMatch(/\*\*Step 1 of \d+\*\*: \S/);
    const [left, right] = equation.split('=');
    const values = answer.split('\\text{ or }').map((part) => {
      const [name, value] = part.split('=');
      expect(name!.trim()).toBe('x');
      return evaluate(fromLatex(value!)) as number;
    });
    for (const x of values)
      expect(evaluate(left!, { x }) as number).toBeCloseTo(evaluate(right!, { x }) as number, 9);
  });

  it.each(EXPRESSIONS)(
    'works out %s step by step, hint first, answer checked',
    (question, expr) => {
      const { replies, answer } = dialogue(question);
      expect(replies.length).toBeGreaterThanOrEqual(2);
      expect(replies[0]).toContain('**Hint:**');
      expect(replies[0]).toMatch(/\?/);
      expect(replies[0]).not.toContain('Answer');
      for (const reply of replies) {
        expect(reply).not.toMatch(CONFIG_WORDS);
        expectRenders(reply);
      }
      for (const x of [-2.5, 0, 1, 3.7])
        expect(evaluate(fromLatex(answer), { x }) as number).toBeCloseTo(
          evaluate(expr, { x }) as number,
          9,
        );
    },
  );

  it.each(OTHERS)('answers %j honestly, from the goals and interests', (question) => {
    const reply = coachAnswer(student, question, []);
    expect(reply).not.toMatch(CONFIG_WORDS);
    expect(reply).toContain(OFFLINE_LINE);
    expect(reply).toContain('ask your teacher');
    expect(reply).toContain('[Goals page](/goal)');
    expect(reply).toContain('Science: 6 of 60 minutes this week (10%)');
    expect(reply).toMatch(/spend 15 minutes on Science first/);
    expect(reply).not.toContain('**Hint:**');
    expect(reply).not.toMatch(/1945|Washington|chlorophyll/);
    expectRenders(reply);
  });

  it('suggests a goal from the interests when there is none', () => {
    const reply = coachAnswer({ ...student, goals: [] }, 'hi', []);
    expect(reply).toContain('You told me you like Math and History');
    expect(reply).toContain('[Goals page](/goal)');
  });

  it("checks the student's answers against the problem", () => {
    const q = 'Solve 2x + 3 = 11';
    const history: Turn[] = [
      { role: 'user', content: q },
      { role: 'assistant', content: coachAnswer(student, q, []) },
    ];
    expect(coachAnswer(student, 'x = 4', history)).toMatch(/^Yes, that's right/);
    const wrong = coachAnswer(student, 'I got x = 5', history);
    expect(wrong).toMatch(/^Not quite/);
    expect(wrong).toContain('**Hint:** subtract $3$ from both sides');
    expect(coachAnswer(student, 'Simplify 2x + 3x', history)).toContain('$$2x+3x$$');
  });

  it('shows every remaining step when asked for the whole solution', () => {
    const q = 'Solve 2x + 3 = 11';
    const history: Turn[] = [
      { role: 'user', content: q },
      { role: 'assistant', content: coachAnswer(student, q, []) },
    ];
    const all = coachAnswer(student, 'show me all the steps', history);
    expect(all).toContain('**Step 1 of 3**: Subtract $3$ from both sides.');
    expect(all).toContain('**Step 3 of 3**');
    expect(all).toContain('**Answer:** $x = 4$');
  });

  // Issue 25 item 4: steps as a student writes them, and the student's own steps checked.
  it('takes 2x + 3 = 11 in 3 steps, the tidy-ups merged', () => {
    const { replies } = dialogue('Solve 2x + 3 = 11');
    const steps = replies.join('\n').match(/\*\*Step \d+ of \d+\*\*: [^\n]*/g);
    expect(steps).toEqual([
      '**Step 1 of 3**: Subtract $3$ from both sides.',
      '**Step 2 of 3**: Work out each side.',
      '**Step 3 of 3**: Divide both sides by $2$.',
    ]);
    expect(replies.join('\n')).toContain('$$2x = 8$$');
  });

  it('shows the common denominator before adding fractions', () => {
    const { replies, answer } = dialogue('What is 3/4 + 2/3?');
    expect(replies[1]).toContain('**Step 1 of 2**: Give the fractions a common denominator.');
    expect(replies[1]).toContain('$$\\frac{9}{12}+\\frac{8}{12}$$');
    expect(replies[1]).not.toContain('17');
    expect(answer).toBe('\\frac{17}{12}');
  });

  function after(...turns: string[]): Turn[] {
    const history: Turn[] = [];
    for (const turn of turns)
      history.push(
        { role: 'user', content: turn },
        { role: 'assistant', content: coachAnswer(student, turn, history) },
      );
    return history;
  }

  it("checks the student's step against the equation under way", () => {
    const history = after('Solve 2x + 3 = 11');
    const right = coachAnswer(student, '2x = 8', history);
    expect(right).toMatch(/^Yes, that's the next step!/);
    expect(right).toContain('**Step 2 of 3**');
    // Any line with the same solutions is a right step, even one the coach would not write.
    expect(coachAnswer(student, '4x = 16', history)).toMatch(/^Yes, that's the next step!/);
    const wrong = coachAnswer(student, '2x = 14', history);
    expect(wrong).toMatch(/^Not quite/);
    expect(wrong).toContain('We subtract $3$ from both sides, and $11-3$ is $8$, not $14$.');
    expect(wrong).toContain('It looks like you added $3$ instead.');
    expectRenders(wrong);
    // After a right step, "next step" goes on from it, and the problem is still 2x + 3 = 11.
    const on = [...history, { role: 'user', content: '2x = 8' } as Turn];
    on.push({ role: 'assistant', content: right });
    expect(coachAnswer(student, 'next step', on)).toContain(
      '**Step 3 of 3**: Divide both sides by $2$.',
    );
    expect(coachAnswer(student, 'x = 4', on)).toMatch(/^Yes, that's right/);
  });

  it('takes a middle line of a sum as a step, not as the answer', () => {
    const history = after('What is 3/4 + 2/3?');
    const middle = coachAnswer(student, '9/12 + 8/12', history);
    expect(middle).toMatch(/^Yes, that's the next step!/);
    expect(middle).toContain('**Step 1 of 2**');
    expect(middle).not.toContain('well done');
    expect(coachAnswer(student, '17/12', history)).toMatch(/^Yes, that's right — well done!/);
  });

  it('says a wrong line has another answer when it matches no step', () => {
    const wrong = coachAnswer(student, 'x + 3 = 11', after('Solve 2x + 3 = 11'));
    expect(wrong).toMatch(/^Not quite — that line doesn't have the same answer/);
    expect(wrong).toContain('**Hint:** subtract $3$ from both sides');
  });

  it('calls typing back the answer it showed copying, not well done', () => {
    const history = after('Solve 2x + 3 = 11', 'show me all the steps');
    const copied = coachAnswer(student, 'x = 4', history);
    expect(copied).toMatch(/^That's the answer I showed you — try the next one yourself!/);
    expect(copied).not.toContain('well done');
    // Worked out alone, the same answer is praised.
    expect(coachAnswer(student, 'x = 4', after('Solve 2x + 3 = 11'))).toContain('well done');
  });

  it('answers "Is 7/8 bigger than 5/6?" as a comparison, common denominator first', () => {
    const { replies, answer } = dialogue('Is 7/8 bigger than 5/6?');
    expect(replies[0]).toContain('**Hint:** write both fractions over a common denominator: $24$');
    expect(replies[0]).not.toContain('0.875');
    expect(replies[1]).toContain('\\frac{7}{8} = \\frac{21}{24}');
    expect(replies[1]).toContain('\\frac{5}{6} = \\frac{20}{24}');
    expect(answer).toBe('\\frac{7}{8} > \\frac{5}{6}');
    expect(replies.at(-1)).toContain('So $\\frac{7}{8}$ is bigger than $\\frac{5}{6}$.');
    for (const reply of replies) expectRenders(reply);
    const smaller = dialogue('Which is bigger, 2/3 or 3/4?');
    expect(smaller.answer).toBe('\\frac{2}{3} < \\frac{3}{4}');
    expect(smaller.replies.at(-1)).toContain('So $\\frac{3}{4}$ is bigger than $\\frac{2}{3}$.');
  });

  // Issue 25 item 3: simple word problems become the maths the coach can tutor, hint first.
  it.each([
    ['Sam has 3 apples and buys 5 more. How many apples does he have now?', '3 + 5', 8, 'buys'],
    ['Mia had 12 sweets and ate 4. How many are left?', '12 - 4', 8, 'ate'],
    ['There are 4 boxes with 6 pencils in each box. How many pencils?', '4 * 6', 24, 'each'],
    [
      '24 sweets are shared equally among 6 friends. How many does each get?',
      '24 / 6',
      4,
      'shared',
    ],
    [
      'Tom has 10 stickers, gives 3 to Ana and buys 5 more. How many stickers does he have?',
      '(10 - 3) + 5',
      12,
      'gives',
    ],
  ])('turns the word problem %j into its sum, hint first', (question, sum, value, word) => {
    const first = coachAnswer(student, question, []);
    expect(first).toContain("Let's turn the story into maths");
    expect(first).toContain(`*${word}* means we`);
    expect(first).toContain('**Hint:**');
    expect(first).not.toContain('**Answer:**');
    expect(first).not.toContain("I'd rather not guess");
    expectRenders(first);
    const { answer } = dialogue(question);
    expect(evaluate(fromLatex(answer)) as number).toBeCloseTo(value, 9);
    expect(evaluate(sum) as number).toBe(value);
    // The student's own answer is checked against the story's sum.
    const history: Turn[] = [
      { role: 'user', content: question },
      { role: 'assistant', content: first },
    ];
    expect(coachAnswer(student, String(value), history)).toMatch(/^Yes, that's right/);
    expect(coachAnswer(student, String(value + 1), history)).toMatch(/^Not quite/);
  });

  it('says truthfully what it can do, word problems included, when it cannot answer', () => {
    const reply = coachAnswer(student, 'Why is the sky blue?', []);
    expect(reply).toContain("I'd rather not guess");
    expect(reply).toContain('**Word problems** with one or two steps');
  });

  it('says so rather than guessing when a problem is beyond the step engine', () => {
    const reply = coachAnswer(student, 'Solve x^5 + x + 1 = 0', []);
    expect(reply).toContain("I couldn't work that one out step by step");
    expect(reply).not.toMatch(CONFIG_WORDS);
  });
});

// Issue 25 item 4, its last pieces: typed answers to a comparison, and decimals.
describe('the offline coach on comparisons and decimals', () => {
  function after(...turns: string[]): Turn[] {
    const history: Turn[] = [];
    for (const turn of turns)
      history.push(
        { role: 'user', content: turn },
        { role: 'assistant', content: coachAnswer(student, turn, history) },
      );
    return history;
  }

  it.each(['yes', 'Yes!', '7/8', '7/8 is bigger', '5/6 is smaller', '7/8 > 5/6'])(
    'takes %j as the right answer to "Is 7/8 bigger than 5/6?"',
    (typed) => {
      const reply = coachAnswer(student, typed, after('Is 7/8 bigger than 5/6?'));
      expect(reply).toMatch(/^Yes, that's right — well done!/);
      expect(reply).toContain('**Answer:** $\\frac{7}{8} > \\frac{5}{6}$');
      expectRenders(reply);
    },
  );

  it.each(['no', '5/6', '5/6 is bigger', '7/8 is smaller', 'they are equal'])(
    'takes %j as a wrong answer, and says which is bigger over the common denominator',
    (typed) => {
      const reply = coachAnswer(student, typed, after('Is 7/8 bigger than 5/6?'));
      expect(reply).toMatch(/^Not quite/);
      expect(reply).toContain('$\\frac{7}{8}$ is bigger than $\\frac{5}{6}$');
      expect(reply).toContain('common denominator $24$');
      expect(reply).toContain('\\frac{7}{8} = \\frac{21}{24}');
      expect(reply).toContain('\\frac{5}{6} = \\frac{20}{24}');
      expect(reply).not.toContain('well done');
      expectRenders(reply);
    },
  );

  it('reads yes and no against the question asked, and names for "which is bigger"', () => {
    expect(coachAnswer(student, 'yes', after('Is 7/8 smaller than 5/6?'))).toMatch(/^Not quite/);
    expect(coachAnswer(student, 'no', after('Is 7/8 smaller than 5/6?'))).toMatch(/^Yes, that's/);
    const which = after('Which is bigger, 2/3 or 3/4?');
    expect(coachAnswer(student, '3/4', which)).toMatch(/^Yes, that's right/);
    expect(coachAnswer(student, '2/3', which)).toMatch(/^Not quite/);
  });

  it('still takes next step and new questions during a comparison, and calls copying copying', () => {
    const history = after('Is 7/8 bigger than 5/6?');
    expect(coachAnswer(student, 'next step', history)).toContain('**Step 1 of 2**');
    expect(coachAnswer(student, 'Is 3/4 bigger than 5/7?', history)).toContain(
      '\\frac{3}{4} \\quad\\text{or}\\quad \\frac{5}{7}',
    );
    expect(coachAnswer(student, '7/8 + 5/6', history)).toContain('common denominator');
    expect(coachAnswer(student, '7/8 + 5/6', history)).not.toMatch(/^(Yes|Not quite)/);
    const shown = after('Is 7/8 bigger than 5/6?', 'show me all the steps');
    expect(coachAnswer(student, '7/8', shown)).toMatch(/^That's the answer I showed you/);
  });

  it('works out 0.5 + 0.25 like 1/2 + 1/4: places lined up, then added', () => {
    const { replies, answer } = dialogue('What is 0.5 + 0.25?');
    expect(replies[0]).toContain(
      '**Hint:** give every number the same number of decimal places, so the points line up.',
    );
    expect(replies[1]).toContain('**Step 1 of 2**');
    expect(replies[1]).toContain('$$0.50+0.25$$');
    expect(replies[1]).not.toContain('0.75');
    expect(replies[2]).toContain(
      '**Step 2 of 2**: Count in hundredths: $50 + 25 = 75$ hundredths.',
    );
    expect(answer).toBe('0.75');
    const history = after('What is 0.5 + 0.25?');
    expect(coachAnswer(student, '0.50 + 0.25', history)).toMatch(/^Yes, that's the next step!/);
    expect(coachAnswer(student, '0.75', history)).toMatch(/^Yes, that's right — well done!/);
    expect(coachAnswer(student, '0.3', history)).toMatch(/^Not quite/);
    expect(dialogue('What is 1.2 - 0.45?').answer).toBe('0.75');
  });

  it('solves 2.5x + 1 = 6 in 3 steps and checks a decimal step like a whole one', () => {
    const { replies, answer } = dialogue('Solve 2.5x + 1 = 6');
    expect(replies.join('\n').match(/\*\*Step \d+ of \d+\*\*: [^\n]*/g)).toEqual([
      '**Step 1 of 3**: Subtract $1$ from both sides.',
      '**Step 2 of 3**: Work out each side.',
      '**Step 3 of 3**: Divide both sides by $2.5$.',
    ]);
    expect(answer).toBe('x = 2');
    const history = after('Solve 2.5x + 1 = 6');
    const right = coachAnswer(student, '2.5x = 5', history);
    expect(right).toMatch(/^Yes, that's the next step!/);
    expect(right).toContain('**Step 2 of 3**');
    const wrong = coachAnswer(student, '2.5x = 7', history);
    expect(wrong).toContain('We subtract $1$ from both sides, and $6-1$ is $5$, not $7$.');
    expect(coachAnswer(student, 'x = 2', history)).toMatch(/^Yes, that's right/);
  });

  it('compares 0.7 with 2/3 by writing the decimal as a fraction first', () => {
    const { replies, answer } = dialogue('Is 0.7 bigger than 2/3?');
    expect(replies[0]).toContain('**Hint:** write the decimal as a fraction: $0.7$ is $7$ tenths.');
    expect(replies[1]).toContain('$$0.7 = \\frac{7}{10}$$');
    expect(replies[2]).toContain('\\frac{7}{10} = \\frac{21}{30}');
    expect(replies[2]).toContain('\\frac{2}{3} = \\frac{20}{30}');
    expect(answer).toBe('0.7 > \\frac{2}{3}');
    for (const reply of replies) expectRenders(reply);
    expect(coachAnswer(student, 'yes', after('Is 0.7 bigger than 2/3?'))).toMatch(/^Yes, that's/);
    const no = coachAnswer(student, '2/3', after('Is 0.7 bigger than 2/3?'));
    expect(no).toContain('$0.7$ is bigger than $\\frac{2}{3}$');
  });
});
