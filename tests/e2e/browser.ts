/** Debian's Chromium through playwright-core, with axe-core and screenshots for the e2e tests. */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

import { chromiumLaunchOptions } from '../chromium';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../.test-results/screenshots');

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

export function launch(): Promise<Browser> {
  return chromium.launch({ ...chromiumLaunchOptions(), headless: true });
}

/** Serious and critical axe-core violations on the page as it is now (open dialogs included). */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the app's CSP (script-src 'self') does not cover.
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<AxeResults> } }).axe;
    const results = await axe.run(document);
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  return violations;
}

type AxeResults = {
  violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
};

/** Keeps a screenshot as a test artifact under .test-results/screenshots/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * Waits for the page's finite animations (a dialog fading in, a menu sliding open) to end, so that
 * axe-core's contrast check and screenshots see the settled screen. Endless ones (a spinner) are left.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      // A paused animation never finishes: do not wait for it forever.
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
}

/** A page in a fresh context (desktop size unless told), where any uncaught page error fails the test. */
export async function newPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  return page;
}

/**
 * No serious or critical axe-core violation once animations settle; keeps a screenshot `name`.
 * A toast can start fading in or out while axe-core runs (their timers are the app's, not the
 * test's), and a half-faded toast fails the contrast check: so a violation is looked at again (up
 * to twice) once that animation has ended, and only one that is still there fails the test.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  await animationsDone(page);
  let violations = await axeViolations(page);
  // A toast's exit can begin between two looks, so up to two more, each after animations end.
  for (let look = 0; look < 2 && violations.length > 0; look++) {
    await animationsDone(page);
    violations = await axeViolations(page);
  }
  expect(violations, name).toEqual([]);
  await screenshot(page, name);
}

/**
 * From the onboarding page through the first run (a subject ticked where asked) to the assistant's
 * empty screen.
 */
export async function completeOnboarding(page: Page): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const start = page.getByRole('button', { name: 'Start learning' });
    if (await start.isVisible()) break;
    const subject = page.getByRole('checkbox', { name: /Math/i });
    if (await subject.isVisible()) await subject.check();
    await page.getByRole('button', { name: 'Next' }).click();
  }
  await page.getByRole('button', { name: 'Start learning' }).click();
  await page.waitForURL(/\/assistant$/);
  await page.getByRole('heading', { name: 'Ready to learn together?' }).waitFor();
}
