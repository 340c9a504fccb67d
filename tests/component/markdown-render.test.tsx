/** <Markdown>'s wiring: links, unsafe URLs, raw HTML, code copying, tables, math and its errors. */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';

import { Markdown } from '../../src/markdown/Markdown';
import { loadKatex } from '../../src/markdown/math';

beforeAll(async () => {
  await loadKatex();
});

describe('<Markdown>', () => {
  it('opens links in a new tab, says so, and keeps only the allowed schemes', () => {
    render(
      <Markdown
        content={
          '[Safe](https://example.com/a) [Mail](mailto:a@example.com) ' +
          '[Evil](javascript:alert(1)) [Data](data:text/html,hi) ![pic](javascript:x)'
        }
      />,
    );
    // jsdom joins the hidden text without its space; a browser reads "Safe (opens in a new tab)".
    const safe = screen.getByRole('link', { name: /^Safe ?\(opens in a new tab\)$/ });
    expect(safe).toHaveAttribute('href', 'https://example.com/a');
    expect(safe).toHaveAttribute('target', '_blank');
    expect(safe).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: /Mail/ })).toHaveAttribute(
      'href',
      'mailto:a@example.com',
    );
    // The refused ones stay as inert text: no link, no image, no address anywhere.
    expect(screen.getAllByRole('link')).toHaveLength(2);
    expect(screen.getByText('Evil').closest('a')).toBeNull();
    expect(screen.getByText('Data').closest('a')).toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
    expect(document.body.innerHTML).not.toMatch(/javascript:|data:text/);
  });

  it('renders no raw HTML', () => {
    const { container } = render(
      <Markdown
        content={'<script>alert(1)</script>\n\nHello <b>bold</b> <img src=x onerror=alert(1)>'}
      />,
    );
    expect(container.querySelector('script, b, img')).toBeNull();
    expect(container).toHaveTextContent('Hello bold');
  });

  it('labels a code block with its language and copies it, announcing it', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<Markdown content={'```python\nprint("hi")\n```'} />);
    expect(screen.getByText('python')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith('print("hi")');
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Copied');
  });

  it('renders GFM tables with header and data cells', () => {
    render(<Markdown content={'| Step | Result |\n|---|---|\n| 1 | $x = 2$ |'} />);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Step', 'Result']);
    expect(within(table).getAllByRole('cell')[1]!.querySelector('.katex')).not.toBeNull();
  });

  it('renders math in every notation', () => {
    const { container } = render(
      <Markdown
        content={
          'Inline $a^2$, \\(b^2\\) and ( \\sqrt{c} ).\n\n$$\nx = 1\n$$\n\n\\[\ny = 2\n\\]\n\n[ z = \\frac{1}{2} ]'
        }
      />,
    );
    const sources = [...container.querySelectorAll('.katex annotation')].map((a) => a.textContent);
    expect(sources).toEqual(['a^2', 'b^2', '\\sqrt{c}', 'x = 1', 'y = 2', 'z = \\frac{1}{2}']);
    expect(container.querySelectorAll('[data-slot="display-math"] .katex-display')).toHaveLength(3);
  });

  it('leaves money alone', () => {
    const { container } = render(<Markdown content="It costs $5 and $10." />);
    expect(container).toHaveTextContent('It costs $5 and $10.');
    expect(container.querySelector('.katex')).toBeNull();
  });

  it('shows a formula KaTeX cannot read as its source, in the destructive colour', () => {
    const { container } = render(<Markdown content={'Broken: $\\frac{1}{$ here.'} />);
    const error = container.querySelector<HTMLElement>('.katex-error')!;
    expect(error).toHaveTextContent('\\frac{1}{');
    expect(error.style.color).toBe('var(--ay-color-destructive)');
  });

  it('holds back a half-streamed formula, then shows it whole', () => {
    const { container, rerender } = render(
      <Markdown content={'The formula:\n\n$$\n\\frac{1}{2} +'} streaming />,
    );
    expect(container).toHaveTextContent('The formula:');
    expect(container.textContent).not.toContain('$');
    expect(container.querySelector('.katex, .katex-error')).toBeNull();
    rerender(<Markdown content={'The formula:\n\n$$\n\\frac{1}{2} + x\n$$\n'} streaming />);
    expect(container.querySelector('.katex-display annotation')).toHaveTextContent(
      '\\frac{1}{2} + x',
    );
  });
});
