import fc from 'fast-check';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import { describe, expect, it } from 'vitest';

import { normalizeMath } from '../../../src/lib/math';

/** Renders markdown the way the chat does (before KaTeX): math arrives as marked <code>. */
function render(markdown: string): string {
  return renderToStaticMarkup(
    createElement(Markdown, { remarkPlugins: [remarkGfm, remarkMath] }, markdown),
  );
}

const count = (html: string, what: 'math-inline' | 'math-display') =>
  html.split(`class="language-math ${what}"`).length - 1;

/** normalizeMath, checked to be a fixed point on the way. */
function n(markdown: string): string {
  const once = normalizeMath(markdown);
  expect(normalizeMath(once)).toBe(once);
  return once;
}

describe('backslash notation', () => {
  it('turns \\( \\) into inline math, trimmed', () => {
    expect(n('Solve \\( x^2 = 4 \\) now.')).toBe('Solve $x^2 = 4$ now.');
    expect(n('\\(a\\) and \\(b\\)')).toBe('$a$ and $b$');
  });

  it('turns a \\[ \\] that fills its line into a display block', () => {
    expect(n('\\[ x^2 + 1 \\]')).toBe('$$\nx^2 + 1\n$$');
    expect(n('Before:\n  \\[ E = mc^2 \\]  \nAfter.')).toBe(
      'Before:\n  $$\n  E = mc^2\n  $$\nAfter.',
    );
  });

  it('handles multi-line display blocks, delimiters alone or sharing a line', () => {
    expect(n('\\[\n\\frac{a}{b}\n\\]')).toBe('$$\n\\frac{a}{b}\n$$');
    expect(n('\\[ a +\n   b \\]')).toBe('$$\na +\nb\n$$');
    expect(n('\\[\n  x = 1 \\\\\n  y = 2\n\\]')).toBe('$$\nx = 1 \\\\\ny = 2\n$$');
  });

  it('keeps a mid-sentence \\[ \\] as $$..$$ inline', () => {
    expect(n('so \\[x\\] holds')).toBe('so $$x$$ holds');
  });

  it('repeats list and blockquote prefixes on every line of the block', () => {
    expect(n('1. Start\n   \\[ x \\]\n2. Next')).toBe('1. Start\n   $$\n   x\n   $$\n2. Next');
    expect(n('- \\[ a \\]')).toBe('- $$\n  a\n  $$');
    expect(n('> \\[ a\n> b \\]')).toBe('> $$\n> a\n> b\n> $$');
  });

  it('reads \\\\ inside math as TeX, not as an escaped delimiter', () => {
    expect(n('\\( a \\\\ b \\)')).toBe('$a \\\\ b$');
    expect(n('\\[ [a\\\\] \\]')).toBe('$$\n[a\\\\]\n$$');
  });

  it('leaves unmatched or empty delimiters as they are', () => {
    expect(n('\\( x')).toBe('\\( x');
    expect(n('x \\]')).toBe('x \\]');
    expect(n('\\(\\)')).toBe('\\(\\)');
    expect(n('\\[  \\]')).toBe('\\[  \\]');
  });

  it('uses $$ when a digit follows, which a single $ would refuse', () => {
    expect(n('\\(x\\)5')).toBe('$$x$$5');
  });

  it('keeps adjacent math apart with a space', () => {
    expect(n('\\(a\\)\\(b\\)')).toBe('$a$ $b$');
    expect(n('$a$\\(b\\)')).toBe('$a$ $b$');
  });

  it('leaves notation holding a $ or a backtick alone', () => {
    expect(n('\\( \\$5 \\)')).toBe('\\( \\$5 \\)');
    expect(n('\\( `code` \\)')).toBe('\\( `code` \\)');
    expect(n('\\[ a `b` \\]')).toBe('\\[ a `b` \\]');
  });
});

describe('bracket and parenthesis notation (backslashes lost)', () => {
  it('turns a line that is only [ TeX ] into a display block', () => {
    expect(n('[ x^2 + 1 ]')).toBe('$$\nx^2 + 1\n$$');
    expect(n('[ a_1 = 3 ]')).toBe('$$\na_1 = 3\n$$');
    expect(n('[\\frac{1}{2}]')).toBe('$$\n\\frac{1}{2}\n$$');
    expect(n('Area:\n[ \\pi r^2 ]\nDone')).toBe('Area:\n$$\n\\pi r^2\n$$\nDone');
  });

  it('handles nested brackets and multi-line bracket blocks', () => {
    expect(n('[ [a, b] \\cdot c ]')).toBe('$$\n[a, b] \\cdot c\n$$');
    expect(n('[ \\frac{[a]}{2} ]')).toBe('$$\n\\frac{[a]}{2}\n$$');
    expect(n('[\nx^2 = 4\n]')).toBe('$$\nx^2 = 4\n$$');
  });

  it.each([
    '[x]',
    '[ ]',
    '- [ ] task',
    '- [x] done = yes',
    '[^1]',
    '[ ^note ]',
    '[ see above ]',
    '[x^2]',
    '[link](https://example.com)',
    '[ref]: https://example.com',
    '[ a = b ] and more',
    'text [ x^2 ]',
    '[ `x^2` ]',
    '[ [a](b) = c ]',
  ])('leaves %j alone', (text) => {
    expect(n(text)).toBe(text);
  });

  it('turns ( TeX command ) with lost-backslash spacing into inline math', () => {
    expect(n('where ( \\alpha ) is the angle')).toBe('where $\\alpha$ is the angle');
    expect(n('so ( \\frac{a}{b} ) and ( \\sqrt{2} ).')).toBe('so $\\frac{a}{b}$ and $\\sqrt{2}$.');
    expect(n('( \\left( x \\right) )')).toBe('$\\left( x \\right)$');
  });

  it.each([
    '(\\alpha)',
    '( x^2 )',
    '( see above )',
    '( \\n is a newline )',
    '[link]( \\alpha )',
    '( \\alpha\n)',
    '( \\alpha `x` )',
  ])('leaves %j alone', (text) => {
    expect(n(text)).toBe(text);
  });
});

describe('dollar notation', () => {
  it('keeps inline $..$ and $$..$$ math', () => {
    for (const text of ['$x$', 'Let $x = 2$, then $x^2 = 4$.', 'a $$x$$ b', '$1+1=2$']) {
      expect(n(text)).toBe(text);
    }
  });

  it('keeps $$ blocks, in containers too', () => {
    for (const text of [
      '$$\nx\n$$',
      'text\n$$\n\\int_0^1 x\\,dx\n$$\nmore',
      '> $$\n> x\n> $$',
      '- $$\n  x\n  $$',
    ]) {
      expect(n(text)).toBe(text);
    }
  });

  it('keeps a $$ block with blank lines or dollars inside', () => {
    expect(n('$$\na\n\nb\n$$')).toBe('$$\na\n\nb\n$$');
    expect(n('$$\n\\$5 $x$\n$$')).toBe('$$\n\\$5 $x$\n$$');
  });

  it('moves text after an opening $$ into the block (remark-math would drop it)', () => {
    expect(n('$$ a + b\n= c\n$$')).toBe('$$\na + b\n= c\n$$');
    expect(n('> $$ x\n> $$')).toBe('> $$\n> x\n> $$');
  });

  it('turns $$ .. $$ filling a line into a block', () => {
    expect(n('$$ x^2 $$')).toBe('$$\nx^2\n$$');
    expect(n('$$a\nb$$')).toBe('$$\na\nb\n$$');
    expect(n('1. $$x$$')).toBe('1. $$\n   x\n   $$');
  });

  it('escapes a $$ that would open a block and never close', () => {
    expect(n('$$\nx')).toBe('\\$\\$\nx');
    expect(n('a $$x\ny')).toBe('a \\$\\$x\ny');
    expect(n('$$a\nb$$ c')).toBe('\\$\\$a\nb\\$\\$ c');
  });

  it('keeps escaped dollars escaped', () => {
    expect(n('\\$5 and \\$10')).toBe('\\$5 and \\$10');
    expect(n('\\\\$x$')).toBe('\\\\$x$');
  });
});

describe('currency', () => {
  it.each([
    ['$5 and $10', '\\$5 and \\$10'],
    ['costs $5', 'costs \\$5'],
    ['$5-$10', '\\$5-\\$10'],
    ['$5/$10', '\\$5/\\$10'],
    ['$19.99 each', '\\$19.99 each'],
    ['between $5 and $10, or $x$', 'between \\$5 and \\$10, or $x$'],
    ['$5, $10 and $20', '\\$5, \\$10 and \\$20'],
    ['a $ sign', 'a \\$ sign'],
    ['$ x $', '\\$ x \\$'],
    ['US$ 3', 'US\\$ 3'],
    ['$', '\\$'],
    ['$$', '\\$\\$'],
  ])('escapes %j', (input, output) => {
    expect(n(input)).toBe(output);
  });

  it('renders money as text and math as math', () => {
    const html = render(n('It costs $5 and $10, so $x + y = 15$.'));
    expect(html).toContain('It costs $5 and $10, so ');
    expect(count(html, 'math-inline')).toBe(1);
    expect(html).toContain('>x + y = 15</code>');
  });
});

describe('code is never touched', () => {
  it('leaves fenced code blocks alone, with any fence', () => {
    for (const text of [
      '```\n$5 \\(x\\) [ x^2 ]\n```',
      '~~~js\nconst s = `$${a}`;\n~~~',
      '````\n```\n$x\n```\n````',
      '> ```\n> $5\n> ```',
      '- ```py\n  print("$5")\n  ```',
    ]) {
      expect(n(text)).toBe(text);
    }
  });

  it('treats an unclosed fence (a reply still streaming) as code to the end', () => {
    expect(n('Here:\n```sh\necho $HOME\n\\(x\\)')).toBe('Here:\n```sh\necho $HOME\n\\(x\\)');
  });

  it('ends a fence in a blockquote with the blockquote', () => {
    expect(n('> ```\n> $a\n\ncost $5')).toBe('> ```\n> $a\n\ncost \\$5');
  });

  it('normalises around code, not inside it', () => {
    expect(n('```\n$5\n```\ncosts $5')).toBe('```\n$5\n```\ncosts \\$5');
  });

  it('leaves inline code spans alone, whatever their backtick run', () => {
    for (const text of [
      'use `$5` here',
      'use ``a ` $b`` here',
      'use ```x `` \\(y\\)``` here',
      '`\\( x \\)`',
      '`[ x^2 ]`',
      'a `multi\nline $5` span',
    ]) {
      expect(n(text)).toBe(text);
    }
  });

  it('escapes around unmatched backticks like any text', () => {
    expect(n('a ` b $5')).toBe('a ` b \\$5');
    expect(n('\\`$5`')).toBe('\\`\\$5`');
  });

  it('leaves autolinks alone', () => {
    expect(n('<https://example.com/?a=$5> costs $5')).toBe(
      '<https://example.com/?a=$5> costs \\$5',
    );
    expect(n('<pay$me@example.com>')).toBe('<pay$me@example.com>');
  });
});

describe('everything else', () => {
  it('keeps text without math notation as it is', () => {
    const text = [
      '# Title',
      '',
      'Some *text* with (parentheses) and [links](https://x.y).',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
    ].join('\n');
    expect(n(text)).toBe(text);
    expect(n('')).toBe('');
  });

  it('normalises CRLF line endings', () => {
    expect(n('a\r\n\\[ x \\]\r\nb')).toBe('a\n$$\nx\n$$\nb');
  });

  it('escapes money in headings and table cells without making blocks there', () => {
    expect(n('# Price $5 \\[x\\]')).toBe('# Price \\$5 $$x$$');
    expect(n('| $5 | $10 |')).toBe('| \\$5 | \\$10 |');
  });

  it('renders every notation as the right kind of math', () => {
    const html = render(
      n(
        [
          'Inline \\( a \\), ( \\beta ) and $c$.',
          '',
          '\\[ d \\]',
          '',
          '[ e^2 ]',
          '',
          '$$ f $$',
          '',
          '$$ g',
          '$$',
          '',
          'Money: $5 and $10.',
        ].join('\n'),
      ),
    );
    expect(count(html, 'math-inline')).toBe(3);
    expect(count(html, 'math-display')).toBe(4);
    for (const tex of ['a', '\\beta', 'c', 'd', 'e^2', 'f', 'g'])
      expect(html).toContain(`>${tex}</code>`);
    expect(html).toContain('Money: $5 and $10.');
  });

  it('stays fast on pathological input', () => {
    const inputs = [
      '\\('.repeat(50_000),
      '$a '.repeat(40_000),
      '[\n'.repeat(30_000) + ']\n'.repeat(30_000),
      '( \\alpha '.repeat(20_000) + ' )'.repeat(20_000),
      '`a\n$$\n'.repeat(20_000),
      '$$ a\n'.repeat(30_000),
    ];
    const started = performance.now();
    for (const input of inputs) normalizeMath(input);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('properties', () => {
  const pieces = [
    '$',
    '$$',
    '\\',
    '\\\\',
    '(',
    ')',
    '[',
    ']',
    '`',
    '``',
    '```',
    '\n',
    '\n\n',
    ' ',
    'a',
    '5',
    '^',
    '=',
    '\\frac{a}{b}',
    '\\alpha',
    '\\(',
    '\\)',
    '\\[',
    '\\]',
    '> ',
    '- ',
    '1. ',
    '# ',
    '|',
    '<http://a/$b>',
    '~~~',
    '\t',
    '\\$',
    '](',
    'x^2',
    '\n$$\n',
    ' ( \\alpha ) ',
    '\n[ x^2 ]\n',
    '\r\n',
  ];
  const markdownish = fc
    .array(fc.constantFrom(...pieces), { maxLength: 50 })
    .map((p) => p.join(''));

  it('never throws and is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(markdownish, fc.string({ maxLength: 100 })), (text) => {
        const once = normalizeMath(text);
        expect(normalizeMath(once)).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });

  it('never changes a code span', () => {
    const noTicks = (p: string) => !p.includes('`');
    const around = fc
      .array(fc.constantFrom(...pieces.filter(noTicks)), { maxLength: 15 })
      .map((p) => p.join(''));
    const code = fc
      .string({
        unit: fc.constantFrom('$', '\\', '(', ')', '[', ']', ' ', 'x', '^', '{', '}', '<', '>'),
        minLength: 1,
        maxLength: 12,
      })
      .filter((c) => c.trim() !== '');
    fc.assert(
      fc.property(around, code, around, (before, inside, after) => {
        // Text before the span must not open math or an autolink that would swallow it.
        fc.pre(!before.endsWith('\\') && !/[$<]/.test(before));
        const span = `\`${inside}\``;
        expect(normalizeMath(before + span + after)).toContain(span);
      }),
      { numRuns: 2000 },
    );
  });

  it('never changes fenced code', () => {
    const line = fc.string({
      unit: fc.constantFrom('$', '\\', '(', ')', '[', ']', ' ', 'x', '`', '^'),
      maxLength: 12,
    });
    const safeBefore = fc
      .array(fc.constantFrom('a', ' ', '\n', '\\(', '\\)', '[', ']', '5', '^'), { maxLength: 15 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(safeBefore, fc.array(line, { maxLength: 4 }), (before, body) => {
        fc.pre(body.every((l) => !l.trimStart().startsWith('```')));
        const block = `\`\`\`\n${body.join('\n')}\n\`\`\``;
        expect(normalizeMath(`${before}\n${block}\nafter $5`)).toContain(block);
      }),
      { numRuns: 1000 },
    );
  });

  it('never renders money as math', () => {
    const word = fc.constantFrom(
      'costs',
      'and',
      'or',
      'only',
      'save',
      'a',
      '-',
      '/',
      ',',
      '(',
      ')',
    );
    const money = fc.nat(1000).map((v) => `$${v}`);
    fc.assert(
      fc.property(fc.array(fc.oneof(word, money), { maxLength: 12 }), (tokens) => {
        const html = render(normalizeMath(tokens.join(' ')));
        expect(html).not.toContain('language-math');
      }),
      { numRuns: 300 },
    );
  });
});
