import type { Meta, StoryObj } from '@storybook/react-vite';
import { Markdown } from 'ayah-coach/markdown';
import { useEffect, useState } from 'react';
import { expect, spyOn, userEvent, waitFor, within } from 'storybook/test';

const meta = {
  title: 'Chat/Markdown',
  component: Markdown,
  // A reply sits in a message column, not the full page width.
  decorators: [(Story) => <div style={{ maxWidth: 680 }}>{Story()}</div>],
  args: { content: '' },
} satisfies Meta<typeof Markdown>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The TeX sources of the typeset formulas, once KaTeX (loaded on demand) has rendered them. */
async function formulas(canvasElement: HTMLElement, count: number): Promise<string[]> {
  await waitFor(() => expect(canvasElement.querySelectorAll('.katex')).toHaveLength(count), {
    timeout: 5000,
  });
  return [...canvasElement.querySelectorAll('.katex annotation')].map((a) => a.textContent ?? '');
}

export const MathNotations: Story = {
  args: {
    content: [
      '## Math in every notation',
      'Dollars: $x^2 - 5x + 6 = 0$, and backslash parentheses: \\(x = 2\\) or \\(x = 3\\).',
      'A padded parenthesis form that lost its backslashes: ( \\frac{a}{b} ).',
      'Display math in dollars:',
      '$$\nx = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}\n$$',
      'In backslash brackets:',
      '\\[\n\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}\n\\]',
      'And in bare brackets:',
      '[ a^2 + b^2 = c^2 ]',
    ].join('\n\n'),
  },
  play: async ({ canvasElement }) => {
    await expect(await formulas(canvasElement, 7)).toEqual([
      'x^2 - 5x + 6 = 0',
      'x = 2',
      'x = 3',
      '\\frac{a}{b}',
      'x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}',
      '\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}',
      'a^2 + b^2 = c^2',
    ]);
    await expect(canvasElement.querySelectorAll('.katex-display')).toHaveLength(3);
    // No delimiter is left on screen.
    await expect(canvasElement.textContent).not.toMatch(/\$|\\\(|\\\[/);
  },
};

export const Tables: Story = {
  args: {
    content: [
      'Which method should you use?',
      '| Method | Works when | Example |\n|:---|:---:|---|\n| Factoring | roots are small integers | $(x-2)(x-3)$ |\n| Formula | always | $\\frac{-b \\pm \\sqrt{\\Delta}}{2a}$ |\n| Graphing | you only need an estimate | read the $x$-intercepts |',
    ].join('\n\n'),
  },
  play: async ({ canvasElement }) => {
    const table = within(canvasElement).getByRole('table');
    const headers = within(table).getAllByRole('columnheader');
    await expect(headers.map((th) => th.textContent)).toEqual(['Method', 'Works when', 'Example']);
    await expect(within(table).getAllByRole('row')).toHaveLength(4);
    await expect(getComputedStyle(headers[1]!).textAlign).toBe('center');
    await formulas(canvasElement, 3);
  },
};

const CODE = 'def roots(a, b, c):\n    d = b * b - 4 * a * c\n    return d';

export const CodeWithCopyButton: Story = {
  args: { content: `Here is the discriminant in Python:\n\n\`\`\`python\n${CODE}\n\`\`\`` },
  beforeEach: () => {
    // The page's clipboard is not the story's to change: the copy is caught here instead.
    spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('python')).toBeVisible();
    const copy = canvas.getByRole('button', { name: 'Copy code' });
    // Reached and pressed from the keyboard.
    copy.focus();
    await userEvent.keyboard('{Enter}');
    await expect(navigator.clipboard.writeText).toHaveBeenCalledWith(CODE);
    await expect(await canvas.findByRole('button', { name: 'Copied' })).toHaveTextContent('Copied');
    await expect(canvas.getByRole('status')).toHaveTextContent('Copied');
  },
};

export const UnsafeLinks: Story = {
  args: {
    content: [
      'A [safe link](https://example.com/lesson) opens in a new tab.',
      'These stay inert text: [a script](javascript:alert(1)), [data](data:text/html,hi), [vb](vbscript:x).',
      'Raw HTML is never rendered: <a href="javascript:alert(1)">html link</a> <img src=x onerror=alert(1)>',
    ].join('\n\n'),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const links = canvas.getAllByRole('link');
    await expect(links).toHaveLength(1);
    await expect(links[0]).toHaveAccessibleName('safe link (opens in a new tab)');
    await expect(links[0]).toHaveAttribute('target', '_blank');
    await expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(canvas.getByText('a script').closest('a')).toBeNull();
    await expect(canvasElement.innerHTML).not.toMatch(/javascript:|vbscript:|data:text|<img/);
  },
};

export const BrokenFormula: Story = {
  args: { content: 'A formula KaTeX cannot read, $\\frac{1}{$, shows its source in red.' },
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelector('.katex-error')).not.toBeNull(), {
      timeout: 5000,
    });
    const error = canvasElement.querySelector('.katex-error')!;
    await expect(error).toHaveTextContent('\\frac{1}{');
    // The destructive token, red in the light theme.
    await expect(getComputedStyle(error).color).toBe('rgb(185, 28, 28)');
  },
};

export const HalfStreamedFormula: Story = {
  args: {
    content: 'The quadratic formula is:\n\n$$\nx = \\frac{-b \\pm \\sqrt{b^2',
    streaming: true,
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('The quadratic formula is:')).toBeVisible();
    // Give KaTeX time to load: still nothing of the unfinished formula may show.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(canvasElement.textContent).not.toContain('$$');
    await expect(canvasElement.textContent).not.toContain('\\frac');
    await expect(canvasElement.querySelector('.katex, .katex-error')).toBeNull();
  },
};

export const Currency: Story = {
  args: { content: 'A notebook costs $5 and a calculator $10, so together they cost $15.' },
  play: async ({ canvasElement }) => {
    await expect(canvasElement).toHaveTextContent(
      'A notebook costs $5 and a calculator $10, so together they cost $15.',
    );
    await expect(canvasElement.querySelector('.katex, [data-slot="math-source"]')).toBeNull();
  },
};

const TYPOGRAPHY = [
  '# Quadratic equations',
  '## Working through it',
  'Start with **what you know**, then _what you need_. Inline `code` reads as code.',
  '### Steps',
  '1. Write the equation in standard form.\n2. Identify $a$, $b$ and $c$.\n3. Solve, then check.',
  '- Factoring\n- Completing the square\n  - with a nested point\n- The formula',
  '> **Tip:** substitute each answer back into the original equation.',
  '---',
  'That is ~~all~~ most of it.',
].join('\n\n');

export const Typography: Story = {
  args: { content: TYPOGRAPHY },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // A reply's headings sit under the page's one h1: `#` is an h2, `##` an h3.
    await expect(canvas.queryByRole('heading', { level: 1 })).toBeNull();
    await expect(canvas.getByRole('heading', { level: 2 })).toHaveTextContent(
      'Quadratic equations',
    );
    await expect(canvas.getByRole('heading', { level: 3 })).toHaveTextContent('Working through it');
    const lists = canvas.getAllByRole('list');
    await expect(getComputedStyle(lists[0]!).listStyleType).toBe('decimal');
    await expect(getComputedStyle(lists[1]!).listStyleType).toBe('disc');
    await expect(canvasElement.querySelector('blockquote')).toHaveTextContent('Tip:');
    await formulas(canvasElement, 3);
  },
};

export const DarkTheme: Story = {
  args: {
    content: `${TYPOGRAPHY}\n\n\`\`\`js\nconst x = 1;\n\`\`\`\n\n| A | B |\n|---|---|\n| 1 | 2 |`,
  },
  globals: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    await formulas(canvasElement, 3);
    const root = canvasElement.querySelector('[data-slot="ayah-root"]')!;
    await expect(root).toHaveAttribute('data-theme', 'dark');
  },
};

const STREAMED = [
  'Let us solve $x^2 - 5x + 6 = 0$ step by step.',
  '| Step | Result |\n|---|---|\n| Factor | $(x-2)(x-3)$ |\n| Solve | $x = 2$ or $x = 3$ |',
  '$$\nx = \\frac{5 \\pm 1}{2}\n$$',
  '```python\nprint((5 + 1) / 2, (5 - 1) / 2)\n```',
  'Both roots check out. **Well done!**',
].join('\n\n');

/** Streams `text` in 3-character chunks, as the chat does, then marks it finished. */
function Streaming({ text }: { text: string }) {
  const [length, setLength] = useState(0);
  useEffect(() => {
    if (length >= text.length) return;
    const timer = setTimeout(() => setLength((n) => n + 3), 10);
    return () => clearTimeout(timer);
  }, [length, text]);
  return <Markdown content={text.slice(0, length)} streaming={length < text.length} />;
}

export const StreamingReply: Story = {
  args: { content: STREAMED },
  render: (args) => <Streaming text={args.content} />,
  play: async ({ canvasElement }) => {
    // Every state the reply passes through is checked: nothing unfinished shows as raw markup.
    const raw: string[] = [];
    let sawTable = false;
    const check = () => {
      const text = canvasElement.textContent ?? '';
      if (/\$|```|\*\*|\|-/.test(text)) raw.push(text);
      sawTable ||= canvasElement.querySelector('table') !== null;
    };
    const observer = new MutationObserver(check);

    observer.observe(canvasElement, { childList: true, subtree: true, characterData: true });
    try {
      await waitFor(
        () => expect(canvasElement.querySelector('strong')).toHaveTextContent('Well done!'),
        {
          timeout: 10000,
        },
      );
    } finally {
      observer.disconnect();
    }
    await expect(raw).toEqual([]);
    await expect(sawTable).toBe(true);
    await expect(await formulas(canvasElement, 5)).toContain('x = \\frac{5 \\pm 1}{2}');
  },
};
