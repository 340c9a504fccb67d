/**
 * Issue 25 #16: one text case and one page-title size. The spec's own strings keep their case as
 * written ('Save Changes', 'Active Goals'…); every other title and button is in sentence case; and the
 * three widgets a page shows as its title (Settings, the wallet, the goals board) title it alike.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterAll, beforeAll, expect, test } from 'vitest';

import { fakeGoalsAdapter } from '../../fakes/goals';
import { emailUser, fakeSettingsAdapter } from '../../fakes/settings';
import { fakeWalletAdapter } from '../../fakes/wallet';
import { GoalsBoard } from '../../src/goals';
import { Settings } from '../../src/settings';
import css from '../../src/styles.css?inline';
import { AyahRoot } from '../../src/ui';
import { Wallet } from '../../src/wallet';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Title-case strings the spec writes so (its buttons, sections and stats). */
const SPEC_STRINGS = new Set([
  'Save Changes',
  'Change Password',
  'Profile Information',
  'Data Controls',
  'Recent Activity',
  'Active Goals',
  'Avg Progress',
  'This Week',
  'Day Streak',
  'New Chat',
  'Search Chats',
  'Profile Settings',
  'Sign Out',
]);
/** Names, which keep their capital anywhere. */
const NAMES = /^(Ayah|AYAH|Math|Science|History|English|MetaMask|Google|I)$/;

/** A string in neither sentence case nor the spec's own wording. */
function wrongCase(text: string): boolean {
  if (SPEC_STRINGS.has(text)) return false;
  const words = text.split(/\s+/).slice(1);
  return words.some((word) => /^[A-Z][a-z]/.test(word) && !NAMES.test(word.replace(/\W+$/, '')));
}

let root: Root;
let host: HTMLElement;

beforeAll(async () => {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(async () => {
    root.render(
      <AyahRoot style={{ width: 900 }}>
        <div data-widget="settings">
          <Settings adapter={fakeSettingsAdapter()} user={emailUser} />
        </div>
        <div data-widget="wallet">
          <Wallet adapter={fakeWalletAdapter()} />
        </div>
        <div data-widget="goals">
          <GoalsBoard adapter={fakeGoalsAdapter()} user={emailUser} reducedMotion />
        </div>
      </AyahRoot>,
    );
  });
  // Each widget has drawn its data (the goals board its cards).
  for (let i = 0; i < 200 && !host.querySelector('[data-widget="goals"] article'); i++)
    await act(() => new Promise((resolve) => setTimeout(resolve, 25)));
  if (!host.querySelector('[data-widget="goals"] article')) throw new Error('no goal cards drawn');
});

afterAll(() => {
  act(() => root.unmount());
  host.remove();
});

test('titles and buttons are in sentence case, or the spec’s words as written', () => {
  const texts = [...host.querySelectorAll('button, h1, h2, h3, [role="tab"]')]
    .map((element) => element.textContent!.trim())
    .filter((text) => text.includes(' '));
  expect(texts.length).toBeGreaterThan(5);
  expect(texts.filter(wrongCase)).toEqual([]);
});

test('the widgets title their page in one size and weight', () => {
  const title = (widget: string) => {
    const heading = host.querySelector(`[data-widget="${widget}"] :is(h1, h2)`)!;
    const style = getComputedStyle(heading);
    return { size: style.fontSize, weight: style.fontWeight };
  };
  const settings = title('settings');
  expect(title('wallet')).toEqual(settings);
  expect(title('goals')).toEqual(settings);
});
