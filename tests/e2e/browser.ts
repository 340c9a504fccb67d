/** Debian's Chromium through playwright-core, with axe-core and screenshots for the e2e tests. */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import {
  type Browser,
  type BrowserContextOptions,
  chromium,
  type Frame,
  type Locator,
  type Page,
  type Request,
} from 'playwright-core';
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
  // Evaluated through the DevTools protocol, which the app's CSP (script-src 'self') does not cover;
  // once a document (its 550 kB took the renderer about 100 ms a time, as long as a run itself).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    type Run = (context: Document, options: { resultTypes: string[] }) => Promise<AxeResults>;
    const axe = (window as unknown as { axe: { run: Run } }).axe;
    // Every rule still runs; only a violation's every node is gathered (a pass keeps one).
    const results = await axe.run(document, { resultTypes: ['violations'] });
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

/**
 * What a chat shows now, as text for a failure message: the page's address, whether the prerendered
 * screen is still up and what input it holds, each message (role, status, the start of its text), the
 * composer (its value, read-only, the "Not sent" line) and any toast or alert. A timed-out wait on a
 * chat otherwise says only what it waited for, not what was there instead.
 */
export async function chatState(frame: Pick<Frame, 'evaluate'>): Promise<string> {
  return frame
    .evaluate(() => {
      const trace = (window as unknown as { __chatInputTrace?: string[] }).__chatInputTrace;
      const text = (node: Element | null) =>
        (node?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 120);
      const early = (window as unknown as Record<string, unknown>).__ayahEarlyInput as
        { live: boolean; replaying?: boolean; held: { kind: string }[] } | undefined;
      const input = document.querySelector<HTMLTextAreaElement>('[data-slot="chat-input"]');
      const messages = [...document.querySelectorAll('[data-slot="chat-message"]')].map(
        (m) =>
          `  ${m.getAttribute('data-role')}${m.hasAttribute('data-status') ? ` [${m.getAttribute('data-status')}]` : ''}: ${text(m)}`,
      );
      const notices = [...document.querySelectorAll('[role="status"],[role="alert"]')]
        .map(text)
        .filter(Boolean);
      return [
        `url: ${location.href}`,
        `prerendered screen: ${document.documentElement.dataset.screen ?? '(none: the app has it)'}`,
        `early input: ${early ? `${early.live ? 'live' : early.replaying ? 'being replayed' : 'held'}, ${early.held.map((h) => h.kind).join(',') || 'nothing'} waiting` : '(none)'}`,
        `messages (${messages.length}):`,
        ...messages,
        `composer: ${input ? `value ${JSON.stringify(input.value)}${input.readOnly ? ', read-only' : ''}` : '(none)'}; ${text(document.querySelector('[data-slot="chat-composer"]'))}`,
        `notices: ${notices.length ? notices.join(' | ') : '(none)'}`,
        `h1: ${[...document.querySelectorAll('h1')].map(text).join(' | ')}`,
        ...(trace ? ['input (ms since the page began):', ...trace.map((line) => `  ${line}`)] : []),
      ].join('\n');
    })
    .catch((error: unknown) => `(the chat could not be read: ${String(error)})`);
}

/** What each traced page called of the product's API, with the answers, and its console errors. */
const apiTraces = new WeakMap<Page, { calls: string[]; open: Map<Request, number> }>();

/**
 * From now on `page` keeps what a chat's failure message needs (waitInChat): on /assistant, in the
 * page or a frame of it, when the held first-screen input went live and each text and Enter in the
 * composer (trusted or replayed, held or not, the composer's value then) — a lost Enter is otherwise
 * invisible; and each call to the product at `productUrl`'s API with its status, and console errors.
 */
export async function traceChat(page: Page, productUrl: string): Promise<void> {
  const calls: string[] = [];
  const open = new Map<Request, number>();
  apiTraces.set(page, { calls, open });
  const start = Date.now();
  const at = () => `${Date.now() - start}ms`;
  const path = (url: string) => url.slice(productUrl.length);
  const api = (req: Request) => req.url().startsWith(`${productUrl}/api/`);
  page.on('request', (req) => api(req) && open.set(req, Date.now() - start));
  page.on('requestfinished', (req) => open.delete(req));
  page.on('response', (res) => {
    if (api(res.request()))
      calls.push(`${at()} ${res.request().method()} ${path(res.url())} → ${res.status()}`);
  });
  page.on('requestfailed', (req) => {
    open.delete(req);
    if (req.url().startsWith(productUrl))
      calls.push(`${at()} ${req.method()} ${path(req.url())} failed: ${req.failure()?.errorText}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      calls.push(`${at()} console ${message.type()}: ${message.text().slice(0, 200)}`);
  });
  page.on('pageerror', (error) => calls.push(`${at()} uncaught ${String(error).slice(0, 200)}`));
  // Where each frame went: a frame that leaves the product, or is gone, is otherwise a bare timeout.
  const frameName = (frame: Frame) =>
    frame === page.mainFrame() ? 'page' : `frame ${frame.name() || frame.url().slice(0, 40)}`;
  page.on('framenavigated', (frame) =>
    calls.push(`${at()} ${frameName(frame)} at ${frame.url().slice(0, 160)}`),
  );
  page.on('framedetached', (frame) => calls.push(`${at()} ${frameName(frame)} detached`));
  page.on('crash', () => calls.push(`${at()} the page crashed`));
  await page.context().addInitScript(() => {
    if (!location.pathname.startsWith('/assistant')) return;
    const trace: string[] = [];
    Object.assign(window, { __chatInputTrace: trace });
    const at = () => performance.now().toFixed(0);
    const early = () =>
      (window as unknown as { __ayahEarlyInput?: { live: boolean; held: unknown[] } })
        .__ayahEarlyInput;
    const note = (event: Event) => {
      const input = event.target as HTMLTextAreaElement;
      if (input?.getAttribute?.('data-slot') !== 'chat-input') return;
      const held = early();
      trace.push(
        `${at()} ${event.type === 'keydown' ? 'Enter' : 'text'}${event.isTrusted ? '' : ' (replayed)'}` +
          ` ${held ? (held.live ? 'live' : `held ${held.held.length}`) : ''}` +
          `${document.documentElement.hasAttribute('data-screen') ? ' prerendered' : ''}` +
          ` value ${JSON.stringify(input.value.slice(0, 40))}${input.readOnly ? ' read-only' : ''}`,
      );
    };
    addEventListener('keydown', (e) => (e as KeyboardEvent).key === 'Enter' && note(e), true);
    addEventListener('input', note, true);
    // The first-load script's held input (app/early-input.ts): noted as it is set and goes live.
    let firstScreen: { live: boolean } | undefined;
    Object.defineProperty(window, '__ayahEarlyInput', {
      configurable: true,
      get: () => firstScreen,
      set(value: { live: boolean }) {
        firstScreen = value;
        let live = value.live;
        trace.push(`${at()} first-screen input ${live ? 'live' : 'held'}`);
        Object.defineProperty(value, 'live', {
          enumerable: true,
          get: () => live,
          set(next: boolean) {
            if (next !== live) trace.push(`${at()} first-screen input ${next ? 'live' : 'held'}`);
            live = next;
          },
        });
      },
    });
  });
}

/**
 * Waits for `locator` in `page`; on a timeout the error also says what the chat in `frame` (default
 * the page) shows then (chatState) and, when traced (traceChat), what the page called of the API, so
 * that a failure on a busy CI machine explains itself.
 */
export async function waitInChat(
  page: Page,
  locator: Locator,
  { frame = () => page.mainFrame(), timeout = 30_000 }: WaitInChatOptions = {},
): Promise<void> {
  try {
    await locator.waitFor({ timeout });
  } catch (error) {
    const where = frame();
    const state = where
      ? await chatState(where)
      : `(no such frame; the page's frames: ${page
          .frames()
          .map((f) => f.url() || '(no address)')
          .join(', ')})`;
    const api = apiTraces.get(page);
    const open = [...(api?.open ?? [])].map(
      ([req, since]) => `${since}ms ${req.method()} ${req.url()} … not finished yet`,
    );
    (error as Error).message +=
      `\n\nThe chat shows:\n${state}` +
      (api
        ? `\n\nThe page's API calls (ms since traced):\n${[...api.calls, ...open].join('\n')}`
        : '');
    throw error;
  }
}

interface WaitInChatOptions {
  /** The frame the chat is in (a portal's course page frames it). */
  frame?: () => Pick<Frame, 'evaluate'> | undefined;
  timeout?: number;
}
