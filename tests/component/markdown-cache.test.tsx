import { render } from '@testing-library/react';
import katex from 'katex';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { Markdown } from '../../src/markdown/Markdown';
import { loadKatex } from '../../src/markdown/math';

beforeAll(() => loadKatex());

const formulas = (html: HTMLElement) =>
  [...html.querySelectorAll('.katex')].map((element) => element.outerHTML);

describe('the formula cache', () => {
  afterEach(() => vi.restoreAllMocks());

  it('typesets a formula once across messages and re-opens, rendering it the same', () => {
    const typeset = vi.spyOn(katex, 'renderToString');
    const first = render(<Markdown content={'So $\\frac{7}{9}$, and\n\n$$\n\\sqrt{17}\n$$'} />);
    const calls = typeset.mock.calls.length;
    expect(calls).toBe(2);
    const html = formulas(first.container);
    first.unmount();
    // Another message with the same formulas, then the first one opened again: no new typesetting.
    const other = render(
      <Markdown content={'Again, \\(\\frac{7}{9}\\):\n\n\\[\n\\sqrt{17}\n\\]'} />,
    );
    const again = render(<Markdown content={'So $\\frac{7}{9}$, and\n\n$$\n\\sqrt{17}\n$$'} />);
    expect(typeset.mock.calls.length).toBe(calls);
    expect(formulas(other.container)).toEqual(html);
    expect(formulas(again.container)).toEqual(html);
  });

  it('keys formulas by display mode as well as source', () => {
    const typeset = vi.spyOn(katex, 'renderToString');
    const { container } = render(<Markdown content={'Inline $a^{23}$, then\n\n$$\na^{23}\n$$'} />);
    expect(typeset.mock.calls.map(([, options]) => options?.displayMode)).toEqual([false, true]);
    expect(container.querySelectorAll('.katex-display')).toHaveLength(1);
  });
});
