/** KaTeX stays unloaded until a formula renders; until it arrives the formula shows as source. */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { Markdown } from '../../src/markdown/Markdown';

describe('<Markdown> math loading', () => {
  it('shows formula source as plain text, then KaTeX once it has loaded', async () => {
    const { container } = render(<Markdown content="No math here, just $5." />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Nothing asked for KaTeX: a formula rendered now must wait for it.
    render(<Markdown content={'Area $\\pi r^2$ and\n\n$$\nx = 1\n$$'} />);
    const sources = [...document.querySelectorAll('[data-slot="math-source"]')];
    expect(sources.map((s) => s.textContent)).toEqual(['\\pi r^2', 'x = 1']);
    expect(document.querySelector('.katex')).toBeNull();
    await screen.findByText('x = 1', { selector: 'annotation' });
    expect(document.querySelector('[data-slot="math-source"]')).toBeNull();
    expect(container.querySelector('.katex')).toBeNull();
  });
});
