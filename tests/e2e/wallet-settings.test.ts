/**
 * The wallet and settings end to end, in Chromium against the product as `npm start` serves it: a
 * student earns points (onboarding, a goal at 100 %), sees them in the sidebar's wallet modal, converts
 * on /wallet and sees both balances change; archives a chat and restores it from Data Controls;
 * exports the account (the download's JSON holds it); changes the password and signs in with the new
 * one; deletes the account, after which signing in fails. axe-core on /wallet, /settings and every
 * dialog; on a phone, the mobile titles and settings as a popup from the user menu.
 */
import { readFileSync } from 'node:fs';

import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';

import { createHttpApi } from '../../src/http';
import { expectAccessible, MOBILE, newPage } from './browser';
import { createStudent, useProduct } from './product';

const e2e = useProduct();

const NEW_PASSWORD = 'Green-Teapot-77';

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${e2e.product.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar' });
const balances = (page: Page) => page.locator('[data-slot="wallet"] [data-slot="wallet-balances"]');

/** A student with 100 points: onboarding (+50) and a goal at 100 % (+50), both through the API. */
async function studentWithPoints(name: string) {
  const student = await createStudent(e2e.product, {
    email: `${name.toLowerCase()}.${Date.now()}@example.com`,
    name,
  });
  const api = createHttpApi({ baseURL: e2e.product.url, getToken: () => student.token });
  const { goal } = await api.goals.create({
    subject: 'math',
    goal_type: 'problems_solved',
    target_value: 1,
  });
  await api.goals.logProgress(goal._id, { value: 1 });
  expect(await api.wallet.balance()).toEqual({ points: 100, tokens: 0 });
  return { ...student, api };
}

describe('a student and their wallet and settings', () => {
  test('converts points, restores an archived chat, exports, changes the password, deletes the account', async () => {
    const student = await studentWithPoints('Noor');
    // A chat to archive, sent as the app sends it.
    const { sessionId } = await student.api.chat.send({
      messages: [{ role: 'user', content: 'What is a prime number?' }],
    });
    const { title } = await student.api.chat.getSession(sessionId);

    const page = await newPage(e2e.browser, { acceptDownloads: true });
    await signIn(page, student.email, student.password);
    await page.waitForURL(/\/assistant/);

    // The sidebar's wallet modal.
    await page
      .locator('[data-slot="chat-sidebar"]')
      .getByRole('button', { name: 'Wallet', exact: true })
      .click();
    const modal = page.getByRole('dialog', { name: 'Wallet' });
    await expect.poll(() => modal.textContent()).toContain('Points balance100 points');
    await expectAccessible(page, 'wallet-modal');
    await modal.getByRole('link', { name: 'Open wallet' }).click();
    await page.waitForURL(/\/wallet$/);

    // /wallet: convert 100 points into 10 AYAH.
    await expect.poll(() => balances(page).textContent()).toContain('Points balance100 points');
    await page.getByRole('heading', { name: 'Recent activity' }).waitFor();
    await expectAccessible(page, 'wallet-page');
    await page.getByRole('button', { name: 'Convert to AYAH' }).click();
    const dialog = page.getByRole('dialog', { name: 'Convert points to AYAH' });
    const amount = dialog.getByLabel('Points to convert');
    await amount.fill('50');
    await dialog.getByText('Convert at least 100 points', { exact: true }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Convert' }).isDisabled()).toBe(true);
    await amount.fill('100');
    await dialog.getByTestId('tokens-to-receive').getByText('10 AYAH').waitFor();
    await expectAccessible(page, 'wallet-conversion');
    await dialog.getByRole('button', { name: 'Convert' }).click();
    const result = page.getByRole('dialog', { name: 'Conversion complete' });
    await result.getByText('You converted 100 points into 10 AYAH.').waitFor();
    await expectAccessible(page, 'wallet-conversion-success');
    await result.getByRole('button', { name: 'Done' }).click();
    await expect
      .poll(() => balances(page).textContent())
      .toMatch(/Points balance0 points.*AYAH balance10 AYAH/);
    expect(await student.api.wallet.balance()).toEqual({ points: 0, tokens: 10 });

    // Archive the chat from the sidebar, then restore it from Data Controls.
    await page.goto(`${e2e.product.url}/assistant`);
    await sidebar(page)
      .getByRole('button', { name: `Options for ${title}` })
      .click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    await sidebar(page).getByText('No chats yet').waitFor();
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Profile Settings' }).click();
    await page.waitForURL(/\/settings$/);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await expectAccessible(page, 'settings-profile');
    await page.getByRole('tab', { name: 'Data Controls' }).click();
    const archived = page.getByRole('list', { name: 'Archived chats' });
    await archived.getByText(title).waitFor();
    await expectAccessible(page, 'settings-data-controls');
    await archived.getByRole('button', { name: `Unarchive ${title}` }).click();
    await page.getByText('Chat unarchived successfully').waitFor();
    // 'refresh-chat-history': the sidebar shows it again, without a reload.
    await sidebar(page).getByRole('button', { name: title, exact: true }).waitFor();
    await page.getByText('No archived chats.').waitFor();

    // Archive all and delete all ask first.
    await page.getByRole('button', { name: 'Archive all chats' }).click();
    const archiveAll = page.getByRole('alertdialog', { name: 'Archive all chats?' });
    await expectAccessible(page, 'settings-archive-all');
    await archiveAll.getByRole('button', { name: 'Cancel' }).click();
    await archiveAll.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete all chats' }).click();
    const deleteAll = page.getByRole('alertdialog', { name: 'Delete all chats?' });
    await expectAccessible(page, 'settings-delete-all');
    await deleteAll.getByRole('button', { name: 'Cancel' }).click();
    await deleteAll.waitFor({ state: 'detached' });

    // Export: the downloaded JSON holds the account.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^ayah-data-\d{4}-\d\d-\d\d\.json$/);
    const data = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(data.user.email).toBe(student.email);
    expect(data.chats.map((c: { title: string }) => c.title)).toContain(title);
    expect(data.goals).toHaveLength(1);
    expect(data.conversions).toEqual([expect.objectContaining({ points: 100, tokens: 10 })]);
    await page.getByText('Your data was downloaded.').waitFor();

    // Security: change the password.
    await page.getByRole('tab', { name: 'Security' }).click();
    expect(await page.getByRole('button', { name: 'Save Changes' }).count()).toBe(0);
    await page.getByLabel('Current password', { exact: true }).fill('Wrong-Kettle-1');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByText('Passwords match').waitFor();
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Current password is incorrect' })
      .first()
      .waitFor();
    await expectAccessible(page, 'settings-security-error');
    await page.getByLabel('Current password', { exact: true }).fill(student.password);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Password changed successfully!').waitFor();

    // Sign out, and in with the new password.
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL(/\/auth$/);
    await signIn(page, student.email, NEW_PASSWORD);
    await page.waitForURL(/\/assistant/);

    // Delete the account, typing the email and the password (the access token alone is not enough).
    await page.goto(`${e2e.product.url}/settings`);
    await page.getByRole('tab', { name: 'Data Controls' }).click();
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await confirm.getByLabel(`Type your email (${student.email}) to confirm`).fill(student.email);
    await confirm.getByLabel('Your password', { exact: true }).fill(NEW_PASSWORD);
    await expectAccessible(page, 'settings-delete-account');
    await confirm.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(/\/auth$/);
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();

    // The account is gone: signing in fails.
    await signIn(page, student.email, NEW_PASSWORD);
    await page.getByText('Invalid email or password. Please check your credentials.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.context().close();
  }, 180_000);

  test('on a phone: the mobile titles, and settings as a popup from the user menu', async () => {
    const student = await studentWithPoints('Sami');
    const phone = await newPage(e2e.browser, { viewport: MOBILE });
    await signIn(phone, student.email, student.password);
    await phone.waitForURL(/\/assistant/);
    for (const [path, title] of [
      ['/wallet', 'Wallet'],
      ['/settings', 'Settings'],
      ['/wellness', 'Wellness Tools'],
      ['/nutrition', 'Nutrition Tools'],
      ['/exercise', 'Exercise Tools'],
    ] as const) {
      await phone.goto(e2e.product.url + path);
      await phone.getByRole('banner').getByRole('heading', { level: 1, name: title }).waitFor();
      expect(await phone.getByRole('heading', { level: 1 }).count(), path).toBe(1);
    }
    await phone.goto(`${e2e.product.url}/wallet`);
    await expect.poll(() => balances(phone).textContent()).toContain('Points balance100 points');
    await expectAccessible(phone, 'wallet-mobile');

    await phone.getByRole('button', { name: 'Open chats menu' }).click();
    await phone.getByRole('button', { name: /Account menu/ }).click();
    await phone.getByRole('menuitem', { name: 'Profile Settings' }).click();
    const popup = phone.getByRole('dialog', { name: 'Settings' });
    await popup.getByRole('heading', { name: 'Profile Information' }).waitFor();
    expect(new URL(phone.url()).pathname).toBe('/wallet');
    await expectAccessible(phone, 'settings-popup-mobile');
    await popup.getByLabel('Bio').fill('I like prime numbers.');
    await popup.getByRole('button', { name: 'Save Changes' }).click();
    await phone.getByText('Profile updated successfully!').waitFor();
    expect((await student.api.auth.me()).user.bio).toBe('I like prime numbers.');
    await phone.context().close();
  }, 120_000);
});
