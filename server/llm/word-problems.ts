/**
 * Simple arithmetic word problems for the offline coach: one or two operations, the numbers in the
 * text ("Sam has 3 apples and buys 5 more. How many does he have now?" → 3 + 5). Each operation is
 * read from the words around its number; a story it cannot read for certain (no question, an
 * unknown to set up such as "3 times as many as", more than three numbers) is left alone, so the
 * coach says it cannot help rather than tutoring the wrong sum.
 */

type Op = '+' | '-' | '*' | '/';

const CUES: [Op, RegExp][] = [
  // Division first: "shared equally between" must not read as the "-" of "left".
  ['/', /\b(shares?|shared|split|splits|divides?|divided|equally|among|each get|each gets)\b/i],
  ['*', /\b(each|every|times|rows? of|groups? of|boxes of|bags of|packs? of|per)\b/i],
  [
    '-',
    /\b(gives? away|gave away|gives?|gave|eats?|ate|loses?|lost|spends?|spent|sells?|sold|fewer|less|takes? away|took|uses?|used|breaks?|broke|left|minus|fly away|flew away)\b/i,
  ],
  [
    '+',
    /\b(more|buys?|bought|gets?|got|finds?|found|adds?|added|gains?|receives?|received|plus|joins?|joined|another|altogether|in total|in all)\b/i,
  ],
];

const WORDS_OF: Record<Op, string> = {
  '+': 'add',
  '-': 'subtract',
  '*': 'multiply',
  '/': 'divide',
};
const QUESTION = /\?|\bhow (many|much)\b|\bwhat is the total\b/i;
/** Stories that need an unknown set up first: beyond one or two operations on the numbers given. */
const NEEDS_ALGEBRA =
  /\b(times as (many|much)|as many as|twice as|half as|how old|together they)\b/i;
const NUMBER = /\d+(?:\.\d+)?/g;

export interface WordProblem {
  /** The sum in the story, e.g. "(3 + 5) - 2". */
  expression: string;
  /** Why: each operation with the words that call for it. */
  reading: string;
}

function cueIn(text: string): { op: Op; word: string } | null {
  for (const [op, cue] of CUES) {
    const match = cue.exec(text);
    if (match) return { op, word: match[0].toLowerCase() };
  }
  return null;
}

/** The sum a simple word problem asks for, or null when the text is not one the coach can read. */
export function wordProblem(text: string): WordProblem | null {
  if (text.length > 400 || !QUESTION.test(text) || NEEDS_ALGEBRA.test(text)) return null;
  const numbers = [...text.matchAll(NUMBER)];
  if (numbers.length < 2 || numbers.length > 3) return null;
  const ops: { op: Op; word: string }[] = [];
  for (let i = 1; i < numbers.length; i++) {
    const before = numbers[i - 1]!;
    const at = numbers[i]!;
    const between = text.slice(before.index + before[0].length, at.index);
    const next = numbers[i + 1];
    const after = text.slice(at.index + at[0].length, next ? next.index : undefined);
    const cue = cueIn(between) ?? cueIn(after);
    if (!cue) return null;
    ops.push(cue);
  }
  const values = numbers.map((n) => n[0]);
  let expression = `${values[0]} ${ops[0]!.op} ${values[1]}`;
  if (ops[1]) expression = `(${expression}) ${ops[1].op} ${values[2]}`;
  const reading = ops.map(({ op, word }) => `*${word}* means we ${WORDS_OF[op]}`).join(', then ');
  return { expression, reading };
}
