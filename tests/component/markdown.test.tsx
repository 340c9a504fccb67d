/**
 * The streaming renderer, prefix by prefix: what a student sees while a reply streams is never raw
 * markup, never a formula, table row or link cut short, and renders as parsing it afresh would;
 * once streaming ends, the DOM is exactly what react-markdown with rehype-katex gives.
 */
import { render } from '@testing-library/react';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';

import { normalizeMath } from '../../src/lib/math';
import { plainKatexPlugins } from '../../src/markdown/katex';
import { Markdown } from '../../src/markdown/Markdown';
import { loadKatex } from '../../src/markdown/math';
import { MarkdownBlock } from '../../src/markdown/render';
import { replyArbitrary, TUTORING_REPLY } from '../unit/chat/markdown-samples';

beforeAll(async () => {
  await loadKatex();
});

/** What react-markdown, remark-gfm, remark-math and rehype-katex render, with our components. */
function naiveHtml(reply: string): string {
  const { container, unmount } = render(
    <MarkdownBlock markdown={normalizeMath(reply)} katex={plainKatexPlugins} />,
  );
  const html = container.innerHTML;
  unmount();
  return html;
}

function freshHtml(prefix: string): string {
  const { container, unmount } = render(<Markdown content={prefix} streaming />);
  const html = normalise(container.innerHTML);
  unmount();
  return html;
}

/** Markup equal up to whitespace (a suffix shown unparsed keeps a trailing space). */
function normalise(html: string): string {
  return html.replace(/\s+/g, ' ').replace(/ </g, '<');
}

const RAW = ['$', '\\(', '\\)', '\\[', '\\]', '```', '**', '__', '~~', '](', '|--'];

/** Text a reader sees outside code and formulas. */
function proseText(root: Element): string {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest('code, pre, .katex, [data-slot="math-source"]')) {
      text += node.textContent;
    }
  }
  return text;
}

interface Final {
  formulas: Set<string>;
  rows: string[][];
  code: string[];
  links: Set<string>;
}

const formulasOf = (root: Element) =>
  [...root.querySelectorAll('.katex annotation')].map((a) => a.textContent ?? '');
const rowsOf = (root: Element) =>
  [...root.querySelectorAll('tr')].map((tr) => [...tr.cells].map((c) => c.textContent ?? ''));

function finalOf(root: Element): Final {
  return {
    formulas: new Set(formulasOf(root)),
    rows: rowsOf(root),
    code: [...root.querySelectorAll('pre code')].map((c) => c.textContent ?? ''),
    links: new Set([...root.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? '')),
  };
}

function expectClean(root: Element, final: Final, prefix: string): void {
  const where = `after ${JSON.stringify(prefix.slice(-40))}`;
  const text = proseText(root);
  for (const raw of RAW) expect(text.includes(raw), `${raw} shown ${where}`).toBe(false);
  expect(root.querySelector('.katex-error'), where).toBeNull();
  for (const formula of formulasOf(root)) expect(final.formulas, where).toContain(formula);
  const rows = rowsOf(root);
  for (const row of rows) expect(final.rows, where).toContainEqual(row);
  for (const code of root.querySelectorAll('pre code')) {
    const shown = code.textContent ?? '';
    expect(
      final.code.some((c) => c.startsWith(shown)),
      `${shown} ${where}`,
    ).toBe(true);
  }
  for (const link of root.querySelectorAll('a')) {
    expect(final.links, where).toContain(link.getAttribute('href'));
  }
}

/**
 * Streams `reply` through one mounted renderer, stopping at `ends`, checking each view; every
 * `compareEvery`th view is also compared with a fresh render of the same prefix.
 */
function stream(reply: string, ends: readonly number[], compareEvery = 1): void {
  const expected = naiveHtml(reply);
  const reference = document.createElement('div');
  reference.innerHTML = expected;
  const final = finalOf(reference);

  const { container, rerender, unmount } = render(<Markdown content="" streaming />);
  ends.forEach((end, index) => {
    const prefix = reply.slice(0, end);
    rerender(<Markdown content={prefix} streaming />);
    expectClean(container, final, prefix);
    if (index % compareEvery !== 0) return;
    expect(normalise(container.innerHTML), `after ${JSON.stringify(prefix)}`).toBe(
      freshHtml(prefix),
    );
  });
  rerender(<Markdown content={reply} />);
  expect(container.firstElementChild!.innerHTML).toBe(expected);
  unmount();
}

describe('<Markdown> streaming', () => {
  it('shows every prefix of a tutoring reply cleanly, and ends as the naive render', () => {
    // Every prefix is checked clean; every 37th is also compared with a fresh render (fresh renders
    // were two thirds of this file's time; the property below compares each of its cuts).
    stream(
      TUTORING_REPLY,
      Array.from({ length: TUTORING_REPLY.length + 1 }, (_, i) => i),
      37,
    );
  }, 60_000);

  it('does so for any reply cut at any points', () => {
    fc.assert(
      fc.property(replyArbitrary, fc.array(fc.nat(), { maxLength: 15 }), (reply, cuts) => {
        const ends = [...new Set(cuts.map((c) => c % (reply.length + 1)))].sort((a, b) => a - b);
        stream(reply, ends);
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it('renders a finished reply exactly as react-markdown with rehype-katex does', () => {
    fc.assert(
      fc.property(replyArbitrary, (reply) => {
        const { container, unmount } = render(<Markdown content={reply} />);
        expect(container.firstElementChild!.innerHTML).toBe(naiveHtml(reply));
        unmount();
      }),
      { numRuns: 60 },
    );
  }, 30_000);
});
