import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { healTail } from '../../../src/markdown/heal';
import { appendable } from '../../../src/markdown/stream';
import { replyArbitrary } from './markdown-samples';

const heal = (tail: string) => healTail(tail).text;

describe('healTail', () => {
  it.each([
    ['an open $$ block, until it closes', 'Before.\n$$\nx^2 +', 'Before.\n'],
    ['an open \\[ block', 'So:\n\\[\n\\frac{a}', 'So:\n'],
    ['an open inline $', 'The value $x^2 +', 'The value '],
    ['a closing $ a digit may still follow', 'Say $x$', 'Say '],
    ['an open \\(', 'Then \\(y =', 'Then '],
    ['bracket math without its ]', '[ a^2 +', ''],
    ['padded parenthesis math', 'Area ( \\pi r', 'Area '],
    ['a table header without its delimiter row', 'Rows:\n| A | B |', 'Rows:\n'],
    ['a partial delimiter row', '| A | B |\n|---|--', ''],
    [
      'a partial table row',
      '| A | B |\n|---|---|\n| 1 | 2 |\n| 3',
      '| A | B |\n|---|---|\n| 1 | 2 |\n',
    ],
    ['a code fence whose opening line is arriving', 'Code:\n```pyth', 'Code:\n'],
    ['a partial line that may close the fence', '```py\nx = 1\n``', '```py\nx = 1\n'],
    ['an open code span', 'Run `npm te', 'Run '],
    ['a link without its url', 'See [the guide](https://exa', 'See '],
    ['a link text that may get a url', 'See [the guide]', 'See '],
    ['an image', 'Look ![a plot', 'Look '],
    ['an autolink', 'Visit <https://exa', 'Visit '],
    ['bare list markers', 'Steps:\n1.', 'Steps:\n'],
    ['a bare heading marker', 'Text\n\n## ', 'Text\n\n'],
    ['an emphasis opener with nothing after it', 'This is **', 'This is '],
  ])('holds back %s', (_, tail, shown) => {
    expect(heal(tail)).toBe(shown);
  });

  it.each([
    ['bold', 'This is **very imp', 'This is **very imp**'],
    ['nested emphasis', 'A _b **c', 'A _b **c**_'],
    ['strikethrough', 'Not ~~this', 'Not ~~this~~'],
    ['bold in a list item', '- **Step', '- **Step**'],
  ])('closes open %s', (_, tail, shown) => {
    expect(heal(tail)).toBe(shown);
  });

  it.each([
    ['money', 'It costs $5 and the rest'],
    ['money and math', 'Pay $5 and $10 for $x$ now'],
    ['a finished formula', 'We get $x^2$ here'],
    ['a finished table row', '| A | B |\n|---|---|\n| 1 | 2 |\n'],
    ['intraword underscores', 'a snake_case_name'],
    ['a product', 'so 2*3 = 6'],
    ['an approximate tilde', 'about ~5 minutes'],
    ['a code block so far', '```py\nx = 1\ny ='],
  ])('leaves %s alone', (_, tail) => {
    expect(heal(tail)).toBe(tail);
  });

  it('says when the tail ends inside a code fence', () => {
    expect(healTail('```py\nx = 1').code).toBe(true);
    expect(healTail('```py\nx = 1\n```\nText').code).toBe(false);
  });

  it('shows a prefix of the tail, plus at most closing emphasis', () => {
    fc.assert(
      fc.property(replyArbitrary, fc.nat(), (reply, cut) => {
        const tail = reply.slice(0, cut % (reply.length + 1));
        const shown = heal(tail);
        const body = shown.replace(/[*_~]+$/, '');
        expect(tail.startsWith(body.trimEnd())).toBe(true);
      }),
    );
  });
});

describe('appendable', () => {
  it.each([
    ['letters after a word', 'The answer', 'The answer is', false, true],
    ['after a comma', 'First,', 'First, then', false, true],
    ['after a full stop after a letter', 'One step.', 'One step. Then', false, true],
    ['a full stop after a letter', 'One step', 'One step. Then', false, true],
    ['a full stop after digits (a list marker)', 'Steps\n1', 'Steps\n1. Go', false, false],
    ['after a full stop after digits', 'Steps\n1.', 'Steps\n1. Go', false, false],
    ['a www. in the new text', 'Go to', 'Go to www.', false, false],
    ['after a scheme', 'See https', 'See https:', false, false],
    ['after a colon that is no scheme', '**Tip:** Take', '**Tip:** Take care', false, true],
    ['other punctuation', 'The answer', 'The answer:', false, false],
    ['a formula', 'So', 'So $x', false, false],
    ['after emphasis', 'A **b**', 'A **b** c', false, false],
    ['after a link', '[a](b)', '[a](b) c', false, false],
    ['in an autolink', 'Go to www.example', 'Go to www.examples', false, false],
    ['a new line', 'Line', 'Line\nNext', false, false],
    ['anything but a line end, in code', '```js\nconst x', '```js\nconst x = [1];', true, true],
    ['a line end, in code', '```js\nconst x', '```js\nconst x\ny', true, false],
    ['other text', 'Hello', 'Help', false, false],
  ])('%s', (_, base, text, code, expected) => {
    expect(appendable(base, text, code)).toBe(expected);
  });
});
