/**
 * A long tutoring reply of the kind Ayah streams: paragraphs, lists, a GFM table, a code fence,
 * inline formulas in `$…$` and `\(…\)` and display formulas in `$$` blocks and `\[…\]`. Built from
 * units of about 3,000 characters, so two units and four units make the 6k and 12k replies whose
 * streaming times give the growth factor.
 */

const FORMULAS = [
  ['x^2 - 5x + 6 = 0', '(x-2)(x-3) = 0'],
  ['2x^2 + 3x - 2 = 0', '\\Delta = b^2 - 4ac'],
  ['y = 3x^2 - 12x + 7', 'x_v = -\\frac{b}{2a}'],
  ['\\sqrt{49} = 7', 'a^2 + b^2 = c^2'],
];

const DISPLAY = [
  'x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}',
  '\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}',
  '\\int_0^1 x^2 \\, dx = \\left[ \\frac{x^3}{3} \\right]_0^1 = \\frac{1}{3}',
  'f(x) = a\\left(x - h\\right)^2 + k, \\quad h = -\\frac{b}{2a}',
];

const PROSE: readonly string[] = [
  'Take your time with this step, because it is where most mistakes happen. Read the equation ' +
    'aloud, name each coefficient, and only then decide which method fits best.',
  'A good habit is to check your answer by substituting it back into the original equation. If ' +
    'both sides agree, you can be confident; if not, look for a sign error first.',
  'Remember that practice builds intuition. After a few problems you will start to see the ' +
    'structure at a glance, and the steps will feel natural rather than memorised.',
];

const TABLE = `| Method | When it works best | Typical steps | Watch out for |
|---|---|---|---|
| Factoring | Small integer roots | Find two numbers that multiply and add | Missing a sign |
| Completing the square | Leading coefficient 1 | Halve b, square it, add to both sides | Forgetting both sides |
| Quadratic formula | Always | Compute the discriminant, then the roots | Arithmetic slips |
| Graphing | Estimating roots | Plot points, read the x-intercepts | Limited precision |
| Vertex form | Finding the turning point | Rewrite as a(x - h)^2 + k | Sign of h |`;

const CODE = `\`\`\`python
import math

def solve_quadratic(a, b, c):
    """Return the real roots of a*x**2 + b*x + c = 0."""
    discriminant = b * b - 4 * a * c
    if discriminant < 0:
        return []
    root = math.sqrt(discriminant)
    return sorted({(-b - root) / (2 * a), (-b + root) / (2 * a)})

for a, b, c in [(1, -5, 6), (2, 3, -2), (1, 2, 5)]:
    print(a, b, c, solve_quadratic(a, b, c))
\`\`\``;

/**
 * One unit of about 3,000 characters with 6 formulas. A `tag` makes every formula of the unit its
 * own (a subscript), so a formula cache cannot serve one message's formulas to the next.
 */
export function tutoringUnit(k: number, tag = ''): string {
  const [f1, f2] = FORMULAS[k % FORMULAS.length] as [string, string];
  const mark = (tex: string) => (tag === '' ? tex : `${tex}\\,{}_{${tag}}`);
  const display = mark(DISPLAY[k % DISPLAY.length]!);
  const n = k + 1;
  // Half the units use the backslash notations, which the renderer normalises to dollars.
  const inline = (tex: string) => (k % 2 === 0 ? `$${mark(tex)}$` : `\\(${mark(tex)}\\)`);
  const block = k % 2 === 0 ? `$$\n${display}\n$$` : `\\[\n${display}\n\\]`;
  const extra = k % 2 === 0 ? TABLE : CODE;
  return [
    `## Part ${n}: working through example ${n}`,
    `Let us look at ${inline(f1)} together. The goal is to find every value of the unknown ` +
      `that makes the statement true, and to understand **why** each step is allowed. ` +
      PROSE[k % 3],
    `Notice how ${inline(f2)} follows from the previous line. When you see a pattern like this, ` +
      `pause and ask yourself which rule was applied. ${PROSE[(k + 1) % 3]}`,
    'The general result we rely on here is:',
    block,
    `1. Write the equation in standard form, with zero on one side.\n` +
      `2. Identify the coefficients ${inline('a')}, ${inline('b')} and ${inline('c')} carefully.\n` +
      `3. Choose a method: factoring, completing the square, or the formula above.\n` +
      `4. Check each solution by substituting it back, as described in _Part ${n}_.`,
    k % 2 === 0
      ? 'Here is a comparison of the methods you can choose from:'
      : 'You can also let a computer do the arithmetic:',
    extra,
    PROSE[(k + 2) % 3]! + ' ' + PROSE[k % 3]! + ' Keep going: you are doing well.',
    `> **Tip:** ${PROSE[(k + 1) % 3]} When in doubt, draw a quick sketch of the parabola and ` +
      'mark where it crosses the horizontal axis; the picture often tells you how many real ' +
      'solutions to expect before you compute anything.',
    `- Try a similar equation with different numbers.\n- Explain each step in your own words.\n` +
      `- Compare your method with a classmate's.\n- Note which step took the longest, and why.`,
    `${PROSE[k % 3]} ${PROSE[(k + 2) % 3]} Once this feels comfortable, move on to word ` +
      'problems, where the hardest part is turning a sentence into an equation. Ask me for one ' +
      'whenever you are ready, and we will solve it together, one careful step at a time.',
  ].join('\n\n');
}

/** A reply of `units` units (four units: about 12,000 characters, 20 inline and 4 display formulas). */
export function tutoringReply(units: number): string {
  const parts = Array.from({ length: units }, (_, k) => tutoringUnit(k));
  return `${parts.join('\n\n')}\n`;
}
