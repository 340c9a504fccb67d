import { describe, expect, it } from 'vitest';

import { spokenMath, spokenText } from '../../../src/lib/spoken-text';

describe('spokenMath', () => {
  it.each([
    ['x^2 + 1', 'x squared plus 1'],
    ['\\frac{1}{2}', '1 over 2'],
    ['a^{n+1}', 'a to the power n plus 1'],
    ['\\sqrt{16} = 4', 'the square root of 16 equals 4'],
    ['3 \\times 4 \\div 2', '3 times 4 divided by 2'],
    [
      'x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}',
      'x equals minus b plus or minus the square root of b squared minus 4ac over 2a',
    ],
    ['\\pi r^2', 'pi r squared'],
    ['x_1 \\le x_2', 'x sub 1 is less than or equal to x sub 2'],
    ['90^\\circ', '90 degrees'],
  ])('%s → %s', (latex, words) => {
    expect(spokenMath(latex)).toBe(words);
  });
});

describe('spokenText', () => {
  it('drops markdown marks and keeps the words', () => {
    expect(
      spokenText(
        '## Steps\n\n1. **Add** the `x` terms\n- see [the notes](https://e.x/n)\n> _Tip_: check',
      ),
    ).toBe('Steps\n\n1. Add the x terms\nsee the notes\nTip: check');
  });

  it('speaks inline and display formulas, in every delimiter the renderer takes', () => {
    expect(
      spokenText('So $x^2 = 4$, and\n\n$$\\frac{a}{b}$$\n\nalso \\(y_1\\) and \\[z^3\\]'),
    ).toBe('So x squared equals 4 , and\n\na over b\n\nalso y sub 1 and z cubed');
  });

  it('keeps code as characters, without fences', () => {
    expect(spokenText('Run:\n```python\nprint("**hi**")\n```\nDone')).toBe(
      'Run:\nprint("**hi**")\nDone',
    );
  });

  it('reads a table row by row, without pipes or the rule line', () => {
    expect(spokenText('| x | y |\n|---|---|\n| 1 | 2 |')).toBe('x, y\n1, 2');
  });

  it('leaves prices and plain text alone', () => {
    expect(spokenText('It costs $5 and $10 today.')).toBe('It costs $5 and $10 today.');
    expect(spokenText('snake_case and 2*3*4')).toBe('snake_case and 2*3*4');
  });
});
