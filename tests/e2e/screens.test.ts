/**
 * Every main screen at 1280×800 and 390×844, light and dark (the app follows the system's scheme),
 * kept as screenshots (.test-results/screenshots/screen-*.png) so each change to the look can be seen,
 * and each checked by axe-core: the dark scheme's contrast is checked as the light one's is.
 * The conversation is answered by the offline coach (no model configured), as on a fresh `npm start`.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, test } from 'vitest';
import { createHttpApi } from '../../src/http';
import { DESKTOP, expectAccessible, MOBILE, newPage } from './browser';
import { createStudent, useProduct } from './product';

const e2e = useProduct();
let token: string;
let sessionId: string;

beforeAll(async () => {
  const student = await createStudent(e2e.product, { email: 'screens@example.com', name: 'Sami' });
  token = student.token;
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
  signedIn: boolean;
  ready: (page: Page) => Promise<unknown>;
};

const screens: Screen[] = [
  {
    name: 'auth',
    path: '/auth',
    signedIn: false,
    ready: (page) =>
      page.getByRole('heading', { name: 'Welcome! How would you like to continue?' }).waitFor(),
  },
  {
    name: 'assistant-empty',
    path: '/assistant',
    signedIn: true,
    ready: (page) => page.getByRole('heading', { name: 'Ready to learn together?' }).waitFor(),
  },
  {
    name: 'assistant-conversation',
    path: '/assistant?sessionId=',
    signedIn: true,
    ready: (page) =>
      page.locator('[data-role="assistant"][data-status="complete"]').first().waitFor(),
  },
  {
    name: 'goals',
    path: '/goal',
    signedIn: true,
    ready: (page) => page.getByText('Photosynthesis').first().waitFor(),
  },
  {
    name: 'wallet',
    path: '/wallet',
    signedIn: true,
    ready: (page) => page.getByText('Points balance').waitFor(),
  },
  {
    name: 'settings',
    path: '/settings',
    signedIn: true,
    ready: (page) => page.getByRole('heading', { name: 'Profile Information' }).waitFor(),
  },
];

const sizes = { desktop: DESKTOP, mobile: MOBILE } as const;

describe.each(['light', 'dark'] as const)('the %s scheme', (colorScheme) => {
  test.each(Object.keys(sizes) as (keyof typeof sizes)[])(
    'every main screen on %s is accessible, and kept as a screenshot',
    async (size) => {
      for (const signedIn of [false, true]) {
        const page = await newPage(e2e.browser, { viewport: sizes[size], colorScheme });
        if (signedIn) {
          await page.addInitScript((value) => localStorage.setItem('authToken', value), token);
        }
        for (const screen of screens.filter((s) => s.signedIn === signedIn)) {
          const path = screen.path.endsWith('=') ? `${screen.path}${sessionId}` : screen.path;
          await page.goto(`${e2e.product.url}${path}`);
          await screen.ready(page);
          await expectAccessible(page, `screen-${screen.name}-${size}-${colorScheme}`);
        }
        await page.context().close();
      }
    },
    120_000,
  );
});
