/**
 * LTI 1.3 in Chromium: an emulated LMS's course page on http://localhost frames Ayah on
 * http://127.0.0.1 (two different sites), launches a student into the chat and into the goals board,
 * and an instructor into deep linking. Once in a Chromium that allows third-party cookies, once with
 * `--test-third-party-cookie-phaseout` (cookies blocked in the frame unless partitioned); each
 * through the state cookie and through platform storage (postMessage to the course page). And a
 * launch opened as a page of its own in a browser where another student is signed in: it asks which
 * account to use, showing both, and replaces nothing until the student chooses.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { chromiumLaunchOptions } from '../chromium';
import { FakeLms, ROLE } from '../server/fake-lms';
import type { Loose } from '../server/harness';
import { axeViolations, newPage, traceChat, waitInChat } from './browser';
import { useProduct } from './product';

const lms = new FakeLms('localhost');
const env: Record<string, string> = {};
let allowed: Browser;
let blocked: Browser;

/**
 * Playwright starts Chromium with `--disable-features=…,ThirdPartyStoragePartitioning,…`, so a
 * third-party frame gets no storage at all, unlike Chrome, Safari and Firefox, which give it storage
 * of its own per top-level site. The same switch without that feature makes Chromium the browser
 * students have. (The list is Playwright's own, read from the installed playwright-core.)
 *
 * And one process for the course page and the tool's frame: under load Playwright (1.65, with
 * Debian's Chromium 156) now and then missed the frame's move to a process of its own when the LMS's
 * form post took it cross-site, and went on seeing it at the LMS's `/auth` while Ayah ran in it and
 * its API calls answered (3 times in 17 loaded runs, always a second launch). What is tested here —
 * partitioned cookies and storage, postMessage between the two sites — is keyed by site, not by
 * process, so the same browser without site isolation still tests it, and Playwright follows it.
 */
function asBrowsersShipIt(extra: string[]) {
  const require = createRequire(import.meta.url);
  const bundle = readFileSync(
    path.join(path.dirname(require.resolve('playwright-core/package.json')), 'lib/coreBundle.js'),
    'utf8',
  );
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle)?.[1] ?? '';
  const features = [...list.matchAll(/^\s*"([^"]+)",?$/gm)].map((m) => m[1]!);
  if (!features.includes('ThirdPartyStoragePartitioning'))
    throw new Error('playwright-core no longer disables ThirdPartyStoragePartitioning: drop this');
  const options = chromiumLaunchOptions();
  return chromium.launch({
    ...options,
    headless: true,
    ignoreDefaultArgs: [`--disable-features=${features.join(',')}`],
    args: [
      ...options.args,
      `--disable-features=${[
        ...features.filter((f) => f !== 'ThirdPartyStoragePartitioning'),
        'IsolateOrigins',
        'site-per-process',
      ].join(',')}`,
      '--disable-site-isolation-trials',
      ...extra,
    ],
  });
}

beforeAll(async () => {
  await lms.start();
  env.AYAH_LTI_PLATFORMS = JSON.stringify([lms.registration()]);
  [allowed, blocked] = await Promise.all([
    asBrowsersShipIt([]),
    asBrowsersShipIt(['--test-third-party-cookie-phaseout']),
  ]);
});
afterAll(async () => {
  await Promise.all([allowed?.close(), blocked?.close()]);
  await lms.close();
});

const e2e = useProduct({ env, browser: false });

beforeAll(() => {
  lms.toolJwksUrl = `${e2e.product.url}/api/v1/lti/jwks`;
});

let n = 0;
/**
 * Opens the course page with the tool launched for a new plan; answers the page and what its console
 * says in error as it goes, the tool's frame included.
 */
async function openCourse(
  browser: Browser,
  plan: Parameters<FakeLms['plans']['set']>[1],
  storage: boolean,
): Promise<{ page: Page; hint: string; consoleErrors: string[] }> {
  const hint = `hint-${++n}`;
  lms.plans.set(hint, plan);
  const page = await newPage(browser);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error')
      consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  await traceChat(page, e2e.product.url);
  const url = new URL(`${lms.issuer}/course`);
  url.searchParams.set('tool', `${e2e.product.url}/api/v1/lti/login`);
  url.searchParams.set('hint', hint);
  url.searchParams.set('storage', storage ? '1' : '0');
  url.searchParams.set('target', `${e2e.product.url}/assistant`);
  await page.goto(url.toString());
  return { page, hint, consoleErrors };
}

const tool = (page: Page) => page.frameLocator('#tool');

/** Waits for `locator` in the tool's frame; a timeout says what the chat shows and what was called. */
const waitInTool = (page: Page, locator: Locator) =>
  waitInChat(page, locator, {
    frame: () => page.frames().find((f) => f.url().startsWith(e2e.product.url)),
  });

async function askInChat(page: Page) {
  const frame = tool(page);

  await waitInTool(page, frame.getByRole('heading', { name: 'Ready to learn together?' }));
  const input = frame.getByRole('textbox', { name: 'Message Ayah' });
  await input.fill('Solve 2x + 3 = 7');
  await input.press('Enter');
  await waitInTool(page, frame.locator('[data-role="assistant"][data-status="complete"]'));
}

const cases = [
  { name: 'third-party cookies allowed', browser: () => allowed },
  { name: 'third-party cookies blocked', browser: () => blocked },
];

describe.each(cases)('a launch into the chat, $name', ({ browser }) => {
  test('through the partitioned state cookie', async () => {
    const { page, consoleErrors } = await openCourse(
      browser(),
      { sub: `c-${n}`, name: 'Noor Haddad', custom: { ayah_view: 'chat' } },
      false,
    );
    await askInChat(page);
    // The top page stayed the course; the tool's page holds its own tokens.
    expect(page.url()).toContain(`${lms.issuer}/course`);
    const frame = page.frames().find((f) => f.url().startsWith(e2e.product.url))!;
    expect(frame.url()).toMatch(/\/assistant/);
    expect(await frame.evaluate(() => Boolean(localStorage.getItem('authRefreshToken')))).toBe(
      true,
    );
    // Nothing failed on the way: no error in the console of the course page or the tool's frame.
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  test('through platform storage (lti_storage_target)', async () => {
    const sub = `s-${n}`;
    const first = await openCourse(
      browser(),
      { sub, name: 'Sami Lee', custom: { ayah_view: 'chat' } },
      true,
    );
    await askInChat(first.page);
    const log =
      (await first.page.evaluate(
        () => (window as unknown as { storageLog?: string[] }).storageLog,
      )) ?? [];
    expect(log).toEqual(expect.arrayContaining(['lti.put_data', 'lti.get_data']));
    expect(first.consoleErrors).toEqual([]);
    const frame = first.page.frames().find((f) => f.url().startsWith(e2e.product.url))!;
    const token = await frame.evaluate(() => localStorage.getItem('authToken'));
    const me1 = await (
      await fetch(`${e2e.product.url}/api/v1/auth/me`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json();
    await first.page.context().close();
    // Coming back (a new visit) lands in the same account.
    const again = await openCourse(
      browser(),
      { sub, name: 'Sami Lee', custom: { ayah_view: 'chat' } },
      true,
    );
    await waitInTool(
      again.page,
      tool(again.page).getByRole('heading', { name: 'Ready to learn together?' }),
    );
    const frame2 = again.page.frames().find((f) => f.url().startsWith(e2e.product.url))!;
    const token2 = await frame2.evaluate(() => localStorage.getItem('authToken'));
    const me2 = await (
      await fetch(`${e2e.product.url}/api/v1/auth/me`, {
        headers: { authorization: `Bearer ${token2}` },
      })
    ).json();
    expect(JSON.stringify(me2)).toContain('Sami Lee');
    const id = (me: Loose) => me.user?._id ?? me.user?.id ?? me._id ?? me.id;
    expect(id(me2)).toBe(id(me1));
    await again.page.context().close();
  });
});

/** The OIDC login and launch in `page` itself, not in a course's frame (a launch into a new tab). */
async function launchInTab(page: Page, plan: Parameters<FakeLms['plans']['set']>[1]) {
  const hint = `hint-${++n}`;
  lms.plans.set(hint, plan);
  const url = new URL(`${e2e.product.url}/api/v1/lti/login`);
  url.searchParams.set('iss', lms.issuer);
  url.searchParams.set('login_hint', hint);
  url.searchParams.set('target_link_uri', `${e2e.product.url}/assistant`);
  url.searchParams.set('client_id', lms.clientId);
  url.searchParams.set('lti_deployment_id', lms.deploymentId);
  await page.goto(url.toString());
}

test('a launch in a tab where another student is signed in asks first, showing both accounts', async () => {
  const page = await newPage(allowed);
  const me = async () =>
    (
      await (
        await fetch(`${e2e.product.url}/api/v1/auth/me`, {
          headers: {
            authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('authToken'))}`,
          },
        })
      ).json()
    ).user.display_name;
  const chat = page.getByRole('heading', { name: 'Ready to learn together?' });
  const ada = { sub: `ada-${n}`, name: 'Ada First', custom: { ayah_view: 'chat' } };
  const bo = { sub: `bo-${n}`, name: 'Bo Second', custom: { ayah_view: 'chat' } };
  await launchInTab(page, ada);
  await chat.waitFor({ timeout: 30_000 });
  expect(await me()).toBe('Ada First');

  // Bo's launch in Ada's browser: the question, both accounts, and Ada still signed in meanwhile.
  await launchInTab(page, bo);
  const question = page.getByRole('region', { name: 'You are already signed in' });
  await question.waitFor({ timeout: 30_000 });
  await expect.poll(() => question.textContent()).toContain('Bo Second');
  expect(await question.textContent()).toContain('Ada First');
  expect(await me()).toBe('Ada First');
  expect(await axeViolations(page)).toEqual([]);
  // Staying is the focused answer: Enter keeps Ada, and the view opens in her account.
  const stay = page.getByRole('button', { name: 'Stay signed in as Ada First' });
  await expect.poll(() => stay.evaluate((b) => b === document.activeElement)).toBe(true);
  await page.keyboard.press('Enter');
  await chat.waitFor({ timeout: 30_000 });
  expect(await me()).toBe('Ada First');

  // Asked again, switching signs Bo in.
  await launchInTab(page, bo);
  await page.getByRole('button', { name: 'Switch to Bo Second' }).click();
  await chat.waitFor({ timeout: 30_000 });
  await expect.poll(me).toBe('Bo Second');
  await page.context().close();
});

test('a launch into goals shows the board, and reaching 100 % puts a score in the gradebook', async () => {
  const sub = `g-${n}`;
  const { page } = await openCourse(
    blocked,
    { sub, name: 'Gabi', custom: { ayah_view: 'goals' } },
    true,
  );
  const frame = tool(page);
  await frame
    .getByRole('heading', { name: 'Set your first weekly goal' })
    .waitFor({ timeout: 30_000 });
  await frame.getByRole('button', { name: 'New goal' }).click();
  const wizard = frame.getByRole('dialog', { name: 'Create a new goal' });
  await wizard.getByRole('button', { name: /Practice math problems/ }).click();
  await wizard.getByRole('button', { name: /Problems Solved/ }).click();
  await wizard.getByRole('spinbutton', { name: 'Weekly target (problems)' }).fill('1');
  await wizard.getByRole('button', { name: 'Next' }).click();
  await wizard.getByRole('button', { name: 'Create goal' }).click();
  await wizard.waitFor({ state: 'detached' });
  const card = frame.getByRole('article', { name: 'Math · Problems Solved' });
  await card.getByRole('button', { name: 'Log progress' }).click();
  const log = frame.getByRole('dialog', { name: 'Log progress' });
  await log.getByRole('button', { name: 'Log progress' }).click();
  await log.waitFor({ state: 'detached' });
  await expect
    .poll(() => lms.scores.filter((s) => s.body.userId === sub).at(-1)?.body, { timeout: 20_000 })
    .toMatchObject({ scoreGiven: 100, scoreMaximum: 100, activityProgress: 'Completed' });
  await page.context().close();
});

test('an instructor deep-links the goals board; the platform receives a signed content item', async () => {
  const { page } = await openCourse(
    blocked,
    { sub: `t-${n}`, roles: [ROLE.instructor], messageType: 'LtiDeepLinkingRequest' },
    false,
  );
  const frame = tool(page);
  await frame
    .getByRole('heading', { name: 'Add Ayah to your course' })
    .waitFor({ timeout: 30_000 });
  // The picker is accessible (axe-core inside the tool's frame: no serious or critical violation).
  const picker = page.frames().find((f) => f.url().endsWith('/api/v1/lti/launch'))!;
  expect(await axeViolations(picker as unknown as Page)).toEqual([]);
  await frame.getByRole('button', { name: 'Weekly goals' }).focus();
  await page.keyboard.press('Enter');
  await frame
    .getByRole('heading', { name: 'Content added to the course' })
    .waitFor({ timeout: 30_000 });
  const items = lms.deepLinks.at(-1)!['https://purl.imsglobal.org/spec/lti-dl/claim/content_items'];
  expect(items).toEqual([
    expect.objectContaining({ type: 'ltiResourceLink', custom: { ayah_view: 'goals' } }),
  ]);
  await page.context().close();
});
