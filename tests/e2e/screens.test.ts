/**
 * Every main screen at 1280×800 and 390×844, light and dark (the app follows the system's scheme),
 * kept as screenshots (.test-results/screenshots/screen-*.png) so each change to the look can be seen,
 * and each checked by axe-core: the dark scheme's contrast is checked as the light one's is. Each has
 * one `main` landmark and one h1 (axe rates a missing one only moderate, so it is counted here).
 * The conversation is answered by the offline coach (no model configured), as on a fresh `npm start`.
 */
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';

import { createHttpApi } from '../../src/http';
import { DESKTOP, expectAccessible, MOBILE, newPage } from './browser';
import { createStudent, useProduct } from './product';

const e2e = useProduct();
/** Who looks at a screen: a visitor, a student, or a student who has just verified (onboarding). */
type Who = 'guest' | 'student' | 'newcomer';
const tokens: Partial<Record<Who, string>> = {};
let token: string;
let sessionId: string;

beforeAll(async () => {
  const student = await createStudent(e2e.product, { email: 'screens@example.com', name: 'Sami' });
  token = tokens.student = student.token;
  const newcomer = await createStudent(e2e.product, {
    email: 'screens-new@example.com',
    name: 'Nia',
    onboarded: false,
  });
  tokens.newcomer = newcomer.token;
  const api = createHttpApi({ baseURL: e2e.product.url, getToken: () => token });
  await api.goals.create({ subject: 'math', goal_type: 'problems_solved', target_value: 10 });
  const { goal } = await api.goals.create({
    subject: 'science',
    goal_type: 'study_time',
    target_value: 30,
  });
  await api.goals.logProgress(goal._id, { value: 12, topic: 'Photosynthesis', minutes: 12 });
  const reply = await api.chat.send({
    messages: [{ role: 'user', content: 'Can you help me solve 2x + 3 = 11?' }],
  });
  sessionId = reply.sessionId;
}, 240_000);

type Screen = {
  name: string;
  path: string;
  who: Who;
  ready: (page: Page) => Promise<unknown>;
};

const heading = (page: Page, name: string) => page.getByRole('heading', { name }).waitFor();

const screens: Screen[] = [
  {
    name: 'auth',
    path: '/auth',
    who: 'guest',
    ready: (page) => heading(page, 'Welcome! How would you like to continue?'),
  },
  {
    name: 'verify-email',
    path: '/verify-email?email=new-student%40example.com',
    who: 'guest',
    ready: (page) => heading(page, 'Check Your Email'),
  },
  {
    name: 'reset-password',
    path: '/reset-password?token=from-the-email',
    who: 'guest',
    ready: (page) => heading(page, 'Set a new password'),
  },
  {
    name: 'terms',
    path: '/terms',
    who: 'guest',
    ready: (page) => heading(page, 'Terms of use'),
  },
  {
    name: 'onboarding',
    path: '/onboarding',
    who: 'newcomer',
    ready: (page) => heading(page, 'Welcome to Ayah, Nia!'),
  },
  {
    name: 'assistant-empty',
    path: '/assistant',
    who: 'student',
    ready: (page) => page.getByRole('heading', { name: 'Ready to learn together?' }).waitFor(),
  },
  {
    name: 'assistant-conversation',
    path: '/assistant?sessionId=',
    who: 'student',
    ready: (page) =>
      page.locator('[data-role="assistant"][data-status="complete"]').first().waitFor(),
  },
  {
    name: 'goals',
    path: '/goal',
    who: 'student',
    ready: (page) => page.getByText('Photosynthesis').first().waitFor(),
  },
  {
    name: 'wallet',
    path: '/wallet',
    who: 'student',
    ready: (page) => page.getByText('Points balance').waitFor(),
  },
  {
    name: 'settings',
    path: '/settings',
    who: 'student',
    ready: (page) => page.getByRole('heading', { name: 'Profile Information' }).waitFor(),
  },
  {
    name: 'wellness',
    path: '/wellness',
    who: 'student',
    ready: (page) => heading(page, 'Wellness Tools'),
  },
];

/**
 * One `main` landmark and one h1 as assistive technology finds them (by role: what the layout hides
 * at this size, such as the phone header on a desktop, is not counted); a reply's headings start at h2.
 * No other heading repeats the h1's title.
 */
async function expectOnePageStructure(page: Page, name: string) {
  expect(await page.getByRole('main').count(), `${name}: main landmarks`).toBe(1);
  const h1 = page.getByRole('heading', { level: 1 });
  expect(await h1.count(), `${name}: h1 headings`).toBe(1);
  // The title once: a page component's own heading does not repeat the phone header's h1 (the
  // wallet's "Wallet" under the header's "Wallet" at 390×844).
  const title = (await h1.textContent())!.trim();
  const same = page.getByRole('heading', { name: title, exact: true });
  expect(await same.count(), `${name}: headings "${title}"`).toBe(1);
}

/**
 * The app's own pages (not the sign-in cards): their h1 is the page's title, drawn in one size and
 * weight (issue 25 #16), on a desktop as on a phone (where the header's h1 is the title).
 */
const APP_PAGES = new Set([
  'terms',
  'assistant-empty',
  'assistant-conversation',
  'goals',
  'wallet',
  'settings',
  'wellness',
]);

async function titleStyle(page: Page) {
  const read = () =>
    page
      .getByRole('heading', { level: 1 })
      .evaluate((h1) => `${getComputedStyle(h1).fontSize} ${getComputedStyle(h1).fontWeight}`);
  // The signed-in shell's preview may give way to the student's chat as it is read (a detached h1
  // has no style): read again until the one that stays answers.
  let style = '';
  await expect.poll(async () => (style = await read()).trim()).not.toBe('');
  return style;
}

const sizes = { desktop: DESKTOP, mobile: MOBILE } as const;

// The app follows the system's scheme through CSS alone (`prefers-color-scheme`), so a screen is
// loaded once a size and looked at in both schemes: the scheme switched as a student's system would
// switch it, live. (Loaded afresh for each scheme, the four tests took 72 s quiet.)
const SCHEMES = ['light', 'dark'] as const;

test.each(Object.keys(sizes) as (keyof typeof sizes)[])(
  'every main screen on %s, light and dark, is accessible, and kept as a screenshot',
  async (size) => {
    const titles: Record<string, string> = {};
    for (const who of ['guest', 'student', 'newcomer'] as const) {
      const page = await newPage(e2e.browser, { viewport: sizes[size] });
      const signedIn = tokens[who];
      if (signedIn) {
        await page.addInitScript((value) => localStorage.setItem('authToken', value), signedIn);
      }
      for (const screen of screens.filter((s) => s.who === who)) {
        const path = screen.path.endsWith('=') ? `${screen.path}${sessionId}` : screen.path;
        await page.emulateMedia({ colorScheme: SCHEMES[0] });
        await page.goto(`${e2e.product.url}${path}`);
        await screen.ready(page);
        for (const colorScheme of SCHEMES) {
          const name = `screen-${screen.name}-${size}-${colorScheme}`;
          await page.emulateMedia({ colorScheme });
          await expectOnePageStructure(page, name);
          if (APP_PAGES.has(screen.name)) {
            titles[`${screen.name} ${colorScheme}`] = await titleStyle(page);
          }
          await expectAccessible(page, name);
        }
      }
      await page.context().close();
    }
    expect(Object.keys(titles)).toHaveLength(APP_PAGES.size * SCHEMES.length);
    expect(new Set(Object.values(titles)), JSON.stringify(titles)).toEqual(
      new Set([Object.values(titles)[0]]),
    );
  },
  120_000,
);
