/**
 * Replies for the markdown tests: realistic ones, and an arbitrary that composes replies from
 * blocks of every kind the renderer must stream cleanly. None holds literal `$`, `**`, `__` or a
 * backslash bracket outside markup, so any of those in rendered text is markup shown raw.
 */
import fc from 'fast-check';

export const TUTORING_REPLY = `## Solving a quadratic

Let us solve $x^2 - 5x + 6 = 0$ together. We want every value of \\(x\\) that makes it **true**.

1. Factor it: $(x-2)(x-3) = 0$.
2. Set each factor to zero, so \\(x = 2\\) or $x = 3$.

   Both check out when you substitute them back.

- Tip: the _discriminant_ tells you how many roots to expect.
- Another tip, with a [worked example](https://example.com/roots).

The general formula is

$$
x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}
$$

and in bracket form:

\\[
\\Delta = b^2 - 4ac
\\]

[ a^2 + b^2 = c^2 ]

| Method | Works when | Steps |
|---|:---:|---|
| Factoring | roots are small integers | find two numbers |
| Formula | always | compute \\(\\Delta\\) first |

\`\`\`python
def roots(a, b, c):
    d = b * b - 4 * a * c
    return d
\`\`\`

> **Remember:** check ~~one~~ every answer.

The area is \\( \\pi r^2 \\) for a circle, and that is all for today!
`;

/** Blocks a reply may be made of; each is a whole top-level block. */
const BLOCKS = [
  'Plain prose, with commas, and a question?',
  'Inline math $a^2 + b^2$ and more text after it.',
  'Backslash math \\(\\frac{1}{2}\\) inside a sentence.',
  'Display in brackets:\n\\[\nE = mc^2\n\\]',
  '$$\n\\int_0^1 x \\, dx = \\frac{1}{2}\n$$',
  '$$\n\\sum_{k=1}^{n} k\n\n= \\frac{n(n+1)}{2}\n$$',
  '[ x^2 + y^2 = r^2 ]',
  'Some **bold text** and _emphasis_ and `code` here.',
  'A [link](https://example.com/a) and an autolink <https://example.com/b>.',
  '# Heading one',
  '### Heading three with $x$',
  '- item one\n- item two with $y$\n- item three',
  '1. first\n\n2. second, loose\n\n   continued paragraph',
  '> a quote with **strength**\n> and a second line',
  '| A | B |\n|---|---|\n| 1 | $z$ |\n| 3 | 4 |',
  '```js\nconst x = 1;\n\nconsole.log(x);\n```',
  '```\nno language\n```',
  'Text then a fence\n```ts\nlet y: number = 2;\n```',
  '---',
  'A line\nand a lazy continuation with ~~strike~~.',
];

/** A reply of 1–8 blocks, separated by one or two blank lines. */
export const replyArbitrary = fc
  .array(fc.tuple(fc.constantFrom(...BLOCKS), fc.constantFrom('\n\n', '\n\n\n')), {
    minLength: 1,
    maxLength: 8,
  })
  .map((parts) => parts.map(([block, gap]) => block + gap).join(''));
