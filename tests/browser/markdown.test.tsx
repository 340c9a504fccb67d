/**
 * <Markdown> in real Chromium: KaTeX's stylesheet still lays formulas out inside Ayah's scoped
 * reset, wide display math and tables scroll (and only then take a tab stop), and a formula KaTeX
 * cannot read shows in the destructive colour.
 */
import katex from 'katex';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, test } from 'vitest';

import { Markdown } from '../../src/markdown/Markdown';
import { loadKatex } from '../../src/markdown/math';
import css from '../../src/styles.css?inline';
import { AyahRoot } from '../../src/ui/root';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const style = document.createElement('style');
style.textContent = css;
document.head.append(style);

const roots: Root[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await act(async () => root.unmount());
  document.body.replaceChildren();
});

async function mount(node: React.ReactNode, width = 600): Promise<HTMLElement> {
  await loadKatex();
  const host = document.createElement('div');
  host.style.width = `${width}px`;
  document.body.append(host);
  const root = createRoot(host);
  roots.push(root);
  await act(async () => root.render(node));
  // KaTeX's fonts change every width: measure once they are in.
  await document.fonts.ready;
  await act(async () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
  return host;
}

const FORMULA = 'x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a} + \\sum_{k=1}^{n} \\binom{n}{k}';
const BOX = [
  'display',
  'position',
  'width',
  'height',
  'vertical-align',
  'font-family',
  'font-size',
  'line-height',
  'margin-top',
  'padding-left',
  'box-sizing',
  'border-bottom-width',
  'text-align',
];

function boxes(root: Element): string[] {
  return [...root.querySelectorAll('.katex-html *')].map((el) => {
    const computed = getComputedStyle(el);
    // Borders (fraction lines) are drawn in the text's colour, whatever that colour is.
    const border = computed.borderBottomColor === computed.color ? 'currentColor' : 'other';
    return [...BOX.map((name) => computed.getPropertyValue(name)), border].join(' ');
  });
}

describe('<Markdown> in the browser', () => {
  test("KaTeX lays a formula out inside Ayah's scope as on a plain page, whatever the CSS order", async () => {
    const host = await mount(
      <AyahRoot>
        <Markdown content={`$$\n${FORMULA}\n$$`} />
      </AyahRoot>,
    );
    const plain = document.createElement('div');
    plain.style.width = '600px';
    plain.innerHTML = katex.renderToString(FORMULA, { displayMode: true });
    document.body.append(plain);
    const size = (root: Element) => {
      const rect = root.querySelector('.katex-display')!.getBoundingClientRect();
      return [Math.round(rect.width), Math.round(rect.height)];
    };

    // KaTeX's stylesheet arrived with the lazy chunk, after ours; then a host loads ours last.
    for (const order of ['katex-last', 'ayah-last']) {
      if (order === 'ayah-last') document.head.append(style);
      const ours = boxes(host);
      expect(ours.length, order).toBeGreaterThan(50);
      expect(ours, order).toEqual(boxes(plain));
      expect(size(host), order).toEqual(size(plain));
    }
  });

  test('a display formula wider than the reply scrolls, and only then takes a tab stop', async () => {
    const wide = `$$\n${Array.from({ length: 12 }, () => FORMULA).join(' + ')}\n$$`;
    const narrow = await mount(
      <AyahRoot>
        <Markdown content={`${wide}\n\n$$\nx = 1\n$$`} />
      </AyahRoot>,
      320,
    );
    const [scrolling, fitting] = narrow.querySelectorAll<HTMLElement>('[data-slot="display-math"]');
    expect(scrolling!.scrollWidth).toBeGreaterThan(scrolling!.clientWidth);
    expect(getComputedStyle(scrolling!).overflowX).toBe('auto');
    expect(scrolling!.tabIndex).toBe(0);
    expect(fitting!.hasAttribute('tabindex')).toBe(false);
    // The page itself never scrolls sideways.
    expect(narrow.scrollWidth).toBeLessThanOrEqual(320);
  });

  test('a wide table and a long code line scroll inside the reply', async () => {
    const row = Array.from({ length: 12 }, (_, i) => `column ${i}`);
    const table = `| ${row.join(' | ')} |\n|${row.map(() => '---').join('|')}|\n| ${row.join(' | ')} |`;
    const code = `\`\`\`js\nconst line = '${'x'.repeat(300)}';\n\`\`\``;
    const host = await mount(
      <AyahRoot>
        <Markdown content={`${table}\n\n${code}`} />
      </AyahRoot>,
      320,
    );
    const frame = host.querySelector<HTMLElement>('[data-slot="table"]')!;
    const pre = host.querySelector('pre')!;
    for (const scroller of [frame, pre]) {
      expect(scroller.scrollWidth).toBeGreaterThan(scroller.clientWidth);
      expect(scroller.tabIndex).toBe(0);
    }
    expect(host.scrollWidth).toBeLessThanOrEqual(320);
  });

  test('a broken formula shows its source in the destructive colour, in both themes', async () => {
    for (const [theme, colour] of [
      ['light', 'rgb(185, 28, 28)'],
      ['dark', 'rgb(248, 113, 113)'],
    ] as const) {
      const host = await mount(
        <AyahRoot theme={theme}>
          <Markdown content={'Oops: $\\frac{1}{$'} />
        </AyahRoot>,
      );
      const error = host.querySelector('.katex-error')!;
      expect(error.textContent).toBe('\\frac{1}{');
      expect(getComputedStyle(error).color).toBe(colour);
    }
  });
});
