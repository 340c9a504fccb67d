/**
 * The example portal (examples/portal) end to end: `npm start` with AYAH_DEMO_PORTAL=1 serves a plain
 * page with deliberately hostile global CSS that embeds `<Chat>` and `<GoalsBoard>` from the BUILT
 * package (dist/), signed in through the token exchange against the demo's own issuer. In Chromium:
 * the student is signed in without a form, a reply streams into the portal page, the goals wizard
 * (a dialog) and its toast render inside Ayah's scope with the portal's theme and untouched by the
 * portal's CSS, axe finds nothing serious, and every host element keeps every computed style.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';

import { ensureBuilt } from '../built-package';
import { FakeOpenAI } from '../server/fake-openai';
import { expectAccessible, newPage } from './browser';
import { useProduct } from './product';

/** The portal's own elements, whose look Ayah must not change. */
const HOST = [
  'html',
  'body',
  '#portal-header',
  '#portal-title',
  '#portal-intro',
  '#portal-nav',
  '#portal-link',
  '#portal-button',
  '#portal-search',
  '#portal-box',
  '#tutor-heading',
  '#goals-heading',
  '#portal-footer',
  '#ayah-chat',
  '#ayah-goals',
];
/** Sizes of the boxes Ayah fills: they grow with their content, as any content would make them. */
const CONTENT_SIZED = new Set(['#ayah-goals', 'body', 'html']);
const SIZE_PROPERTIES = new Set(['height', 'block-size', 'perspective-origin', 'transform-origin']);

const REPLY = 'Let us think about fractions together: what is $\\frac{1}{2} + \\frac{1}{4}$?';
const pieces = (text: string, size = 4) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) =>
    text.slice(i * size, i * size + size),
  );

const model = new FakeOpenAI();

beforeAll(async () => {
  await ensureBuilt();
}, 600_000);

const e2e = useProduct({
  model,
  env: {
    AYAH_DEMO_PORTAL: '1',
    // The product's own app is not needed here: only the example portal and the API.
    AYAH_SKIP_BUILD: '1',
  },
});

/** Every computed style property of each host element. */
function hostStyles(page: Page) {
  return page.evaluate((selectors) => {
    const styles: Record<string, Record<string, string>> = {};
    for (const selector of selectors) {
      const element = document.querySelector(selector);
      if (!element) throw new Error(`no ${selector} on the portal page`);
      const computed = getComputedStyle(element);
      styles[selector] = Object.fromEntries(
        Array.from(computed, (name) => [name, computed.getPropertyValue(name)]),
      );
    }
    return styles;
  }, HOST);
}

/**
 * Every property that differs between two snapshots, leaving out the sizes of the boxes Ayah fills and
 * Ayah's own `--ay-*` variables: its stylesheet declares its theme tokens on `:root` (Tailwind's
 * `@theme`, so that a portal can re-theme them there, as the README says); they are Ayah's namespace
 * and change how nothing of the portal looks.
 */
function differences(
  before: Record<string, Record<string, string>>,
  after: Record<string, Record<string, string>>,
) {
  const found: string[] = [];
  for (const [selector, properties] of Object.entries(before)) {
    const now = after[selector]!;
    for (const name of new Set([...Object.keys(properties), ...Object.keys(now)])) {
      if (name.startsWith('--ay-')) continue;
      if (CONTENT_SIZED.has(selector) && SIZE_PROPERTIES.has(name)) continue;
      if (properties[name] !== now[name])
        found.push(`${selector} ${name}: ${properties[name]} → ${now[name]}`);
    }
  }
  return found;
}

const demo = () => `${e2e.product.url}/embed-demo`;
const chat = (page: Page) => page.locator('#ayah-chat');

describe('the example portal', () => {
  test("Ayah leaves every computed style of the portal's own elements as it was", async () => {
    // Before: the portal page alone (Ayah's script and stylesheet withheld).
    const bare = await newPage(e2e.browser);
    await bare.route(/\/embed-demo\/assets\/portal\.(js|css)$/, (route) => route.abort());
    await bare.goto(demo());
    const before = await hostStyles(bare);
    await bare.context().close();

    // After: the widgets mounted, signed in, a goal's dialog open.
    const page = await newPage(e2e.browser);
    await page.goto(demo());
    await chat(page).getByRole('textbox', { name: 'Message Ayah' }).waitFor();
    await page.getByRole('button', { name: 'New goal' }).waitFor();
    const after = await hostStyles(page);
    // Nothing of the host changes: KaTeX's one rule on `body` is scoped to the Ayah root in the
    // stylesheet the package carries (scripts/build-css.mjs).
    expect(differences(before, after)).toEqual([]);
    expect(Object.keys(before['#portal-button']!).length).toBeGreaterThan(200);
    await page.context().close();
  });

  test("the portal's resets (greyed images, its focus ring, a forced box model) leave Ayah's look alone", async () => {
    // examples/portal/hostile.css: `img, svg {filter: grayscale(1)}`, `textarea:focus {outline: 4px
    // dashed magenta}`, `* {box-sizing: content-box !important; margin: 0; padding: 0; border: 0}`.
    const page = await newPage(e2e.browser);
    await page.goto(demo());
    const input = chat(page).getByRole('textbox', { name: 'Message Ayah' });
    await input.waitFor();
    const cards = page.getByRole('list', { name: 'Suggested goals' }).getByRole('button');
    await cards.first().waitFor();

    // The logo in colour, as drawn.
    const logo = chat(page).locator('svg').first();
    expect.soft(await logo.evaluate((svg) => getComputedStyle(svg).filter)).toBe('none');

    // The composer focused: Ayah's look (no outline of its own: its frame shows focus), not the portal's.
    await input.focus();
    const outline = await input.evaluate((textarea) => {
      const style = getComputedStyle(textarea);
      return {
        style: style.outlineStyle,
        color: style.outlineColor,
        focused: textarea.matches(':focus'),
      };
    });
    expect.soft(outline).toEqual({
      style: 'none',
      color: expect.not.stringMatching(/255, 0, 255/),
      focused: true,
    });

    // Border boxes everywhere, and the suggestion cards side by side or stacked, never overlapping or
    // spilling out of their list.
    const layout = await page.getByRole('list', { name: 'Suggested goals' }).evaluate((list) => {
      const box = (e: Element) => e.getBoundingClientRect();
      const buttons = Array.from(list.querySelectorAll('button'));
      return {
        list: box(list).toJSON() as DOMRect,
        cards: buttons.map((b) => box(b).toJSON() as DOMRect),
        sizing: [...new Set(buttons.map((b) => getComputedStyle(b).boxSizing))],
      };
    });
    expect.soft(layout.sizing).toEqual(['border-box']);
    expect(layout.cards.length).toBeGreaterThanOrEqual(3);
    const inside = (a: DOMRect, b: DOMRect) =>
      a.left >= b.left - 0.5 &&
      a.right <= b.right + 0.5 &&
      a.top >= b.top - 0.5 &&
      a.bottom <= b.bottom + 0.5;
    const overlap = (a: DOMRect, b: DOMRect) =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
    for (const [i, card] of layout.cards.entries()) {
      expect.soft(inside(card, layout.list), `card ${i} inside its list`).toBe(true);
      for (const other of layout.cards.slice(i + 1)) expect.soft(overlap(card, other)).toBe(false);
    }
    await page.context().close();
  });

  test('signs the student in through the token exchange and streams a reply inside the page', async () => {
    const page = await newPage(e2e.browser);
    const exchanges: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/v1/auth/token-exchange')) exchanges.push(response.status());
    });
    await page.goto(demo());
    const input = chat(page).getByRole('textbox', { name: 'Message Ayah' });
    await input.waitFor();
    // Both widgets share one adapter: one exchange signed the student in for both.
    expect(exchanges).toEqual([200]);

    model.script({ kind: 'chunks', chunks: pieces(REPLY), delayMs: 15 });
    // The reply must be seen streaming: a short one can finish between two looks of a locator, so
    // the page itself notes whether a reply was ever shown while streaming.
    await page.evaluate(() => {
      const seen = { streaming: false };
      (window as unknown as { ayahSeen: typeof seen }).ayahSeen = seen;
      new MutationObserver(() => {
        if (document.querySelector('#ayah-chat [data-role="assistant"][data-status="streaming"]'))
          seen.streaming = true;
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await input.fill('Can you help me add fractions?');
    await input.press('Enter');
    const reply = chat(page).locator('[data-role="assistant"][data-status="complete"]');
    await reply.waitFor({ timeout: 20_000 });
    expect(
      await page.evaluate(
        () => (window as unknown as { ayahSeen: { streaming: boolean } }).ayahSeen.streaming,
      ),
    ).toBe(true);
    await expect(reply.innerText()).resolves.toContain('Let us think about fractions together');
    await reply.locator('.katex').first().waitFor();
    // The completion went to the model for this portal's student, named from the portal's claims.
    expect(JSON.stringify(model.completions().at(-1)!.body)).toContain('Demo Student');
    await expectAccessible(page, 'embed-demo-chat');
    await page.context().close();
  });

  test("the goals wizard and its toast stay inside Ayah's scope, in the portal's theme", async () => {
    const page = await newPage(e2e.browser);
    await page.goto(demo());
    await page.getByRole('button', { name: 'New goal' }).click();
    const wizard = page.getByRole('dialog', { name: 'Create a new goal' });
    await wizard.waitFor();
    await expectAccessible(page, 'embed-demo-wizard');

    const look = await wizard.evaluate((dialog) => {
      const style = getComputedStyle(dialog);
      return {
        inScope: dialog.closest('.ayah') !== null,
        background: style.backgroundColor,
        color: style.color,
        boxSizing: style.boxSizing,
        font: style.fontFamily,
      };
    });
    // The portal's `[role='dialog'] { background: black; color: black }` and `* { … serif }` lose.
    expect(look.inScope).toBe(true);
    expect(look.background).not.toBe('rgb(0, 0, 0)');
    expect(look.color).not.toBe(look.background);
    expect(look.boxSizing).toBe('border-box');
    expect(look.font).not.toMatch(/^serif$/);

    await wizard.getByRole('button', { name: /Practice math problems/ }).click();
    await wizard.getByRole('button', { name: /Problems Solved/ }).click();
    await wizard.getByRole('spinbutton', { name: 'Weekly target (problems)' }).fill('4');
    await wizard.getByRole('button', { name: 'Next' }).click();
    const create = wizard.getByRole('button', { name: 'Create goal' });
    // The portal's theme (its teal on --ay-color-primary), not its `button { all: unset; red }`.
    await expect(create.evaluate((b) => getComputedStyle(b).backgroundColor)).resolves.toBe(
      'rgb(15, 118, 110)',
    );
    await create.click();
    const toast = page.getByText('Math goal created: 4 problems per week!');
    await toast.waitFor();
    await expect(toast.evaluate((t) => t.closest('.ayah') !== null)).resolves.toBe(true);
    await expect(toast.evaluate((t) => getComputedStyle(t).fontFamily === 'serif')).resolves.toBe(
      false,
    );
    await page.getByRole('article', { name: 'Math · Problems Solved' }).waitFor();
    await expectAccessible(page, 'embed-demo-goal-created');
    await page.context().close();
  });
});
