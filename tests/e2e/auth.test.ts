/**
 * The product end to end, as far as accounts reach: sign up, verify through the outbox link,
 * onboarding, the assistant, sign out and in again, a password reset, the route guards, and
 * axe-core on every page of the slice. Real server on a scratch data dir, real Chromium.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';

import { completeOnboarding, expectAccessible, MOBILE, newPage as openPage } from './browser';
import { createStudent, useProduct } from './product';

const PASSWORD = 'Blue-Kettle-42';
const NEW_PASSWORD = 'Green-Teapot-77';

const e2e = useProduct();

const newPage = (viewport?: { width: number; height: number }) =>
  openPage(e2e.browser, viewport ? { viewport } : {});

async function signUp(page: Page, email: string, name = 'Maya') {
  await page.goto(`${e2e.product.url}/register`);
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/verify-email\?email=/);
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${e2e.product.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('a student', () => {
  const email = `maya.${Date.now()}@example.com`;

  test('signs up, verifies by the emailed link, is onboarded and reaches the assistant', async () => {
    const page = await newPage();
    await page.goto(`${e2e.product.url}/auth`);
    await page.getByRole('button', { name: /Continue with Email/ }).waitFor();
    await expectAccessible(page, 'auth-desktop');

    await signUp(page, email);
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await page.getByText(email).first().waitFor();
    await expectAccessible(page, 'verify-email-desktop');

    const link = await e2e.product.linkFrom(/verify-email\?token=/);
    expect(new URL(link).pathname).toBe('/verify-email');
    await page.goto(link);
    await page.waitForURL(/\/onboarding$/, { timeout: 20_000 });
    // The token left the address bar history: reloading does not re-submit it.
    await expectAccessible(page, 'onboarding-desktop');

    // Through the first run to the end.
    await completeOnboarding(page);
    await expectAccessible(page, 'assistant-empty-desktop');

    // Onboarding is done: visiting it again goes back to the assistant; /auth does too.
    await page.goto(`${e2e.product.url}/onboarding`);
    await page.waitForURL(/\/assistant$/);
    await page.goto(`${e2e.product.url}/auth`);
    await page.waitForURL(/\/assistant$/);

    // Sign out from the user menu, then sign in again.
    await page.getByRole('button', { name: /Account menu/ }).click();
    await expectAccessible(page, 'user-menu-open');
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL(/\/auth$/);
    await page.getByText('Signed out successfully').waitFor();
    await signIn(page, email, PASSWORD);
    await page.waitForURL(/\/assistant$/);
    await page.getByText('Signed in successfully!').waitFor();
    await page.context().close();
  }, 120_000);

  test('resets a forgotten password through the emailed link', async () => {
    const page = await newPage();
    await page.goto(`${e2e.product.url}/login`);
    await page.getByRole('button', { name: /Forgot/i }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Password reset email sent!').waitFor();

    const link = await e2e.product.linkFrom(/reset-password\?token=/);
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('weak');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText(/^Password does not meet requirements: At least 8 characters/).waitFor();
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await expectAccessible(page, 'reset-password-desktop');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password reset successfully!').waitFor();
    await page.waitForURL(/\/auth$/);

    await signIn(page, email, PASSWORD);
    const refused = page.getByText('Invalid email or password. Please check your credentials.');
    await refused.waitFor();
    await signIn(page, email, NEW_PASSWORD);
    await page.waitForURL(/\/assistant$/);
    // Signing in dismisses the refusal: it does not stay beside 'Signed in successfully!'.
    await page.getByText('Signed in successfully!').waitFor();
    await refused.waitFor({ state: 'hidden', timeout: 5_000 });
    await page.context().close();
  }, 120_000);
});

describe('one browser, two accounts or two tabs (issue 22 #1, #4)', () => {
  const api = async (path: string, body: unknown) => {
    const res = await fetch(`${e2e.product.url}/api/v1/auth${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  /** Who the page's stored session belongs to, asked of the server. */
  const signedInAs = (page: Page) =>
    page.evaluate(async () => {
      const res = await fetch('/api/v1/auth/me', {
        headers: { authorization: `Bearer ${localStorage.getItem('authToken') ?? ''}` },
      });
      return res.ok ? ((await res.json()) as { user: { email: string } }).user.email : res.status;
    });

  test('a verification link of another account verifies it and keeps the signed-in student', async () => {
    const sam = await createStudent(e2e.product, {
      email: `sam.${Date.now()}@example.com`,
      name: 'Sam',
    });
    const page = await newPage();
    await signIn(page, sam.email, sam.password);
    await page.waitForURL(/\/assistant$/);

    // Someone else's unused link (an attacker's own account, say) opened in Sam's browser.
    const lee = `lee.${Date.now()}@example.com`;
    const registered = await api('/register', {
      email: lee,
      password: PASSWORD,
      display_name: 'Lee',
      agreed_to_terms: true,
      agreed_to_privacy: true,
    });
    expect(registered.status).toBe(201);
    const link = await e2e.product.linkFrom(new RegExp(lee.replace(/[.+]/g, '\\$&')));
    await page.goto(link);
    await page.getByRole('region', { name: 'Email verified' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: `${lee} is verified. You are still signed in as Sam.` })
      .waitFor();
    await expectAccessible(page, 'verify-email-other-account');
    expect(await signedInAs(page)).toBe(sam.email);

    // Enter answers with the focused choice: stay.
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/assistant$/);
    expect(await signedInAs(page)).toBe(sam.email);
    // Lee's account was verified all the same: it signs in.
    expect((await api('/login', { email: lee, password: PASSWORD })).status).toBe(200);
    await page.context().close();
  }, 120_000);

  test('two tabs renewing the session at once both stay signed in', async () => {
    const tia = await createStudent(e2e.product, {
      email: `tia.${Date.now()}@example.com`,
      name: 'Tia',
    });
    const first = await newPage();
    const context = first.context();
    await signIn(first, tia.email, tia.password);
    await first.waitForURL(/\/assistant$/);
    // The access token is gone (as if it had ended): every tab opened now renews at once.
    await first.evaluate(() => localStorage.removeItem('authToken'));

    // The first renewal is held until the second tab is renewing too: its own request (no shared
    // renewal) or its wait for the renewal lock (shared). Either way both are under way together.
    let renewals = 0;
    const secondUnderWay = async () => {
      const until = Date.now() + 10_000;
      while (Date.now() < until && renewals < 2) {
        const { pending = [] } = await first.evaluate(() => navigator.locks.query());
        if (pending.some((lock) => lock.name === 'ayah-token-renewal')) return;
        await first.waitForTimeout(50);
      }
    };
    await context.route('**/api/v1/auth/refresh', async (route) => {
      renewals += 1;
      if (renewals === 1) await secondUnderWay();
      await route.continue();
    });

    const tabs = [await context.newPage(), await context.newPage()];
    await Promise.all(tabs.map((tab) => tab.goto(`${e2e.product.url}/assistant`)));
    for (const tab of tabs) {
      await tab.getByRole('button', { name: /Account menu/ }).waitFor({ timeout: 30_000 });
      expect(tab.url()).toMatch(/\/assistant$/);
    }
    // And the server agrees: neither tab's session was revoked as a reused refresh token.
    for (const tab of tabs) {
      await tab.reload();
      await tab.getByRole('button', { name: /Account menu/ }).waitFor({ timeout: 30_000 });
      expect(await signedInAs(tab)).toBe(tia.email);
    }
    // The renewal's note (the token pair it gave, in IndexedDB for the other tabs) goes with the
    // session: signing out leaves no token in this origin's storage.
    const [tab] = tabs;
    const renewalNote = () =>
      tab!.evaluate(
        () =>
          new Promise<unknown>((resolve, reject) => {
            const open = indexedDB.open('ayah-session', 1);
            open.onupgradeneeded = () => open.result.createObjectStore('renewals');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const get = open.result.transaction('renewals').objectStore('renewals').get('last');
              get.onsuccess = () => (open.result.close(), resolve(get.result ?? null));
              get.onerror = () => reject(get.error);
            };
          }),
      );
    expect(await renewalNote()).not.toBeNull();
    await tab!.getByRole('button', { name: /Account menu/ }).click();
    await tab!.getByRole('menuitem', { name: 'Sign Out' }).click();
    await tab!.waitForURL(/\/auth$/);
    await expect.poll(renewalNote).toBeNull();
    await context.close();
  }, 120_000);
});

describe('the routes', () => {
  test('send a signed-out visitor to /auth, replacing history, and unknown paths to the assistant', async () => {
    const page = await newPage();
    await page.goto(`${e2e.product.url}/assistant`);
    await page.waitForURL(/\/auth$/);
    await page.goto(`${e2e.product.url}/no/such/page`);
    await page.waitForURL(/\/auth$/);
    await page.goto(`${e2e.product.url}/`);
    await page.waitForURL(/\/auth$/);
    await page.goto(`${e2e.product.url}/verify-email`);
    await page.getByRole('heading', { name: 'Invalid Page Access' }).waitFor();
    await expectAccessible(page, 'verify-email-invalid');
    await page.context().close();
  }, 60_000);

  test('load /auth without the chat, markdown, KaTeX or ethers code', async () => {
    const page = await newPage();
    const scripts: string[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script') scripts.push(res.url());
    });
    await page.goto(`${e2e.product.url}/auth`, { waitUntil: 'networkidle' });
    const bodies = await Promise.all(scripts.map(async (url) => (await fetch(url)).text()));
    const all = bodies.join('\n');
    expect(scripts.length).toBeGreaterThan(0);
    expect(all).not.toMatch(/katex/i);
    expect(all).not.toMatch(/BrowserProvider|ethers\/providers/);
    expect(all).not.toMatch(/Ready to learn together\?/);
    await page.context().close();
  }, 60_000);

  test('work at mobile size', async () => {
    const page = await newPage(MOBILE);
    await page.goto(`${e2e.product.url}/register`);
    await page.getByLabel('Full name').waitFor();
    await expectAccessible(page, 'register-mobile');
    const email = `mobile.${Date.now()}@example.com`;
    await signUp(page, email, 'Omar');
    const link = await e2e.product.linkFrom(new RegExp(email.replace(/[.@]/g, '.')));
    expect(link).toContain('/verify-email?token=');
    await page.context().close();
  }, 60_000);
});

/**
 * The first screen comes from the HTML the build prerendered (scripts/prerender.mjs): the sign-in
 * screen signed out, the shell signed in, visible while the app's code is still held back; React then
 * hydrates it with no mismatch (React reports one as a console error or an uncaught error) and nothing
 * moves (the layout shifts the page records add up to 0).
 */
describe('the first screen', () => {
  const HYDRATION = /hydrat|Minified React error #(418|419|423|425)|did not match/i;

  /**
   * `path` opened with the app's entry (and any `hold` request) held until the prerendered screen
   * has been looked at. Layout shifts are added up from the start, every one (as Lighthouse does:
   * the tagline's typing and what the server's answers change count too).
   */
  async function firstLoad(
    path: string,
    {
      token,
      viewport,
      hold,
      origin = e2e.product.url,
    }: {
      token?: string;
      viewport?: { width: number; height: number };
      hold?: RegExp;
      /** Where the page is loaded from: the product, or a slow network in front of it. */
      origin?: string;
    },
    prerendered: (page: Page) => Promise<void>,
  ) {
    const page = await newPage(viewport);
    // Uncaught errors (React reports a mismatch as one) are collected here, to be looked at, rather
    // than thrown from the listener.
    page.removeAllListeners('pageerror');
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(`Uncaught ${String(error)}`));
    await page.addInitScript((stored) => {
      if (stored) localStorage.setItem('authToken', stored);
      const shifts = { total: 0, moved: [] as string[] };
      Object.assign(window, { __shifts: shifts });
      type Shift = PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: {
          node?: Node | null;
          previousRect: DOMRectReadOnly;
          currentRect: DOMRectReadOnly;
        }[];
      };
      const named = (node: Node | null | undefined) =>
        node instanceof Element
          ? `${node.tagName.toLowerCase()}${node.getAttribute('data-slot') ? `[data-slot=${node.getAttribute('data-slot')}]` : ''} "${(node.textContent ?? '').slice(0, 40)}"`
          : String(node?.nodeName);
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Shift[]) {
          if (entry.hadRecentInput) continue;
          shifts.total += entry.value;
          // What moved, for the failure message: a rare shift is otherwise hard to find again.
          for (const source of entry.sources ?? [])
            shifts.moved.push(
              `${entry.value.toFixed(4)} ${named(source.node)} y ${source.previousRect.y}→${source.currentRect.y} h ${source.previousRect.height}→${source.currentRect.height}`,
            );
        }
      }).observe({ type: 'layout-shift', buffered: true });
    }, token ?? null);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let releaseHeld = () => {};
    const heldMore = new Promise<void>((resolve) => (releaseHeld = resolve));
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    if (hold) {
      await page.route(hold, async (route) => {
        await heldMore;
        await route.continue();
      });
    }
    await page.goto(`${origin}${path}`, { waitUntil: 'commit' });
    // What shows is what the stylesheet shows (nothing paints before it).
    await page.waitForFunction(() =>
      [...document.styleSheets].some((sheet) => sheet.href?.includes('/assets/')),
    );
    // Before React: the prerendered screen, and only that one.
    await prerendered(page);
    expect(await page.evaluate(() => document.documentElement.dataset.screen)).toBeTruthy();
    release();
    // The app has taken the screen over as its root.
    await page.waitForFunction(() => !document.documentElement.hasAttribute('data-screen'));
    return {
      page,
      errors,
      releaseHeld,
      shifts: () => shiftsOn(page),
      moved: () => movedOn(page),
    };
  }

  /** The layout shifts `page` has recorded so far (firstLoad's), added up. */
  const shiftsOn = (page: Page) =>
    page.evaluate(() => (window as never as { __shifts: { total: number } }).__shifts.total);

  /** What moved in each of those shifts (element, its top and height before → after). */
  const movedOn = (page: Page) =>
    page.evaluate(() =>
      (window as never as { __shifts: { moved: string[] } }).__shifts.moved.join('\n'),
    );

  /** Whether React has hydrated (claimed) this element of the prerendered HTML. */
  const hydrated = (selector: string) => (page: Page) =>
    page.waitForFunction((query) => {
      const node = document.querySelector(query);
      return node && Object.keys(node).some((key) => key.startsWith('__reactFiber$'));
    }, selector);

  test('signed out, /auth is the sign-in screen before the app runs, and hydrates as it is', async () => {
    const { page, errors, releaseHeld, shifts, moved } = await firstLoad(
      '/auth',
      // Which sign-ins the school offers arrives later and may change the screen (not this test's).
      { hold: /\/api\/v1\/auth\/providers$/ },
      async (page) => {
        await page.getByRole('button', { name: /Continue with Email/ }).waitFor();
        expect(await page.getByRole('button', { name: 'New Chat' }).count()).toBe(0);
      },
    );
    await hydrated('[data-slot="auth-card"] button')(page);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));
    expect(await shifts(), await moved()).toBe(0);
    releaseHeld();
    // The server offers no Google sign-in (none is configured): its reason shows in the place kept
    // for it, and the tagline is typed out, neither moving anything.
    await page.getByText('Google sign-in is not set up for this school.').waitFor();
    await page.waitForFunction(
      () => sessionStorage.getItem('ayah:tagline-typed') === '1',
      undefined,
      { timeout: 15_000 },
    );
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));
    expect(await shifts(), await moved()).toBe(0);
    // The same button, now the app's: it opens the email form.
    await page.getByRole('button', { name: /Continue with Email/ }).click();
    await page.getByLabel('Email').waitFor();
    expect(errors.filter((e) => HYDRATION.test(e) || e.startsWith('Uncaught'))).toEqual([]);
    await page.context().close();
  }, 60_000);

  test('a click on the sign-in screen before the app runs is done once it has', async () => {
    const { page, errors } = await firstLoad('/auth', {}, async (page) => {
      // The entry is still held: this button is the HTML's, and the click is held with it.
      await page.getByRole('button', { name: /Continue with Email/ }).click();
      expect(await page.getByLabel('Email').count()).toBe(0);
    });
    await page.getByLabel('Email').waitFor();
    expect(errors.filter((e) => HYDRATION.test(e) || e.startsWith('Uncaught'))).toEqual([]);
    await page.context().close();
  }, 60_000);

  test("text typed and sent in the shell before the app runs is the student's first message", async () => {
    const student = await createStudent(e2e.product, {
      email: `first.early.${Date.now()}@example.com`,
      name: 'Noor',
    });
    const { page, errors } = await firstLoad(
      '/assistant',
      { token: student.token },
      async (page) => {
        const input = page.getByRole('textbox', { name: 'Message Ayah' });
        await input.fill('What is 7 times 8?');
        await input.press('Enter');
        await input.fill('And 9 times 9?');
      },
    );
    // The held Enter sent the held text, to the student's own chat; what was typed after stays.
    await page.locator('[data-role="user"]').getByText('What is 7 times 8?').waitFor();
    const input = page.getByRole('textbox', { name: 'Message Ayah' });
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLTextAreaElement>('[data-slot="chat-input"]')?.value ===
        'And 9 times 9?',
    );
    expect(await input.inputValue()).toBe('And 9 times 9?');
    expect(await page.locator('[data-role="user"]').count()).toBe(1);
    expect(errors.filter((e) => HYDRATION.test(e) || e.startsWith('Uncaught'))).toEqual([]);
    await page.context().close();
  }, 60_000);

  /**
   * The product behind a network that delivers a page's HTML in two parts, as slow 4G does: up to the
   * end of `until` in the prerendered screen `screen`, and the rest once `rest()` is called. Every other
   * request passes straight through.
   */
  async function slowHtml(screen: string, until: string) {
    let rest = () => {};
    const gate = new Promise<void>((resolve) => (rest = resolve));
    const server = createServer((req, res) => {
      const upstream = request(
        `${e2e.product.url}${req.url}`,
        // Plain text for the HTML, to cut it where the screen is.
        { method: req.method, headers: { ...req.headers, 'accept-encoding': 'identity' } },
        (answer) => {
          const isHtml = /^text\/html/.test(answer.headers['content-type'] ?? '');
          if (!isHtml) {
            res.writeHead(answer.statusCode!, answer.headers);
            answer.pipe(res);
            return;
          }
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', async () => {
            const html = Buffer.concat(chunks).toString('utf8');
            const at = html.indexOf(until, html.indexOf(`data-prerendered="${screen}"`));
            if (at < 0) throw new Error(`no ${until} in the ${screen} screen`);
            const headers = { ...answer.headers };
            delete headers['content-length'];
            res.writeHead(answer.statusCode!, headers);
            res.write(html.slice(0, at + until.length));
            await gate;
            res.end(html.slice(at + until.length));
          });
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      rest,
      close: () => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      },
    };
  }

  // On a slow network (or a busy phone whose parser pauses) the browser paints what it has of the HTML.
  // Half a screen lays out otherwise than the whole one (the empty chat's greeting at the foot of a
  // shell with no composer yet, a sign-in card half as tall): it would jump once the rest came.
  test.each([
    [
      'signed in, the shell',
      {
        path: '/assistant',
        screen: 'in',
        until: 'Ready to learn together?</h2>',
        part: '[data-prerendered="in"] h2',
        last: (page: Page) => page.getByRole('textbox', { name: 'Message Ayah' }),
      },
    ],
    [
      'signed out, the sign-in screen',
      {
        path: '/auth',
        screen: 'out',
        until: 'Continue with Email</button>',
        part: '[data-prerendered="out"] [data-slot="button"]',
        last: (page: Page) => page.getByRole('button', { name: 'Continue with MetaMask' }),
      },
    ],
  ] as const)(
    'on a phone over a slow network, %s shows whole or not at all',
    async (_, { path, screen, until, part, last }) => {
      const student =
        screen === 'in'
          ? await createStudent(e2e.product, {
              email: `first.slow.${Date.now()}@example.com`,
              name: 'Noor',
            })
          : null;
      const network = await slowHtml(screen, until);
      try {
        const { page } = await firstLoad(
          path,
          { token: student?.token, viewport: MOBILE, origin: network.url },
          async (page) => {
            // The first part has been parsed and the page has rendered a frame with it.
            await page.waitForFunction((query) => document.querySelector(query), part);
            await page.evaluate(
              () => new Promise((done) => requestAnimationFrame(() => setTimeout(done))),
            );
            network.rest();
            await last(page).waitFor();
            await page.evaluate(
              () => new Promise((done) => requestAnimationFrame(() => setTimeout(done))),
            );
            // The app's code is still held: these are the HTML's shifts alone.
            expect(await shiftsOn(page), await movedOn(page)).toBe(0);
          },
        );
        await page.context().close();
      } finally {
        await network.close();
      }
    },
    60_000,
  );

  test.each([
    ['desktop', undefined],
    ['phone', MOBILE],
  ] as const)(
    "signed in on a %s, /assistant is the shell before the app runs, then the student's",
    async (_, viewport) => {
      const student = await createStudent(e2e.product, {
        email: `first.${viewport ? 'phone' : 'desk'}.${Date.now()}@example.com`,
        name: 'Noor',
      });
      const { page, errors, shifts, moved } = await firstLoad(
        '/assistant',
        { token: student.token, viewport },
        async (page) => {
          await page.getByText('Ready to learn together?').waitFor();
          await page.getByRole('textbox').first().waitFor();
          if (viewport) await page.getByRole('heading', { name: 'Ayah', exact: true }).waitFor();
          else await page.getByRole('button', { name: 'New Chat' }).waitFor();
          expect(await page.getByRole('button', { name: /Continue with Email/ }).count()).toBe(0);
          // One h1 as assistive technology finds it, at either size, before React as after.
          expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
        },
      );
      // The session has the student: their chat takes the focus (the preview's does not), and their
      // menu is in the sidebar or the phone's drawer.
      await page.waitForFunction(() => document.activeElement?.tagName === 'TEXTAREA');
      if (viewport) await page.getByRole('button', { name: 'Open chats menu' }).click();
      await page
        .getByRole('button', { name: /Account menu/ })
        .getByText('Noor')
        .waitFor();
      expect(await shifts(), await moved()).toBe(0);
      expect(errors.filter((e) => HYDRATION.test(e) || e.startsWith('Uncaught'))).toEqual([]);
      await page.context().close();
    },
    60_000,
  );
});
