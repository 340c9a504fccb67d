import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import {
  apiError,
  changes,
  emailUser,
  fakeSettingsAdapter,
  googleUser,
  walletUser,
} from '../../../fakes/settings';
import { Settings } from '../../../src/settings/Settings';
import { clearToasts, renderWithToasts } from '../render';

afterEach(() => clearToasts());

const STRONG = 'Str0ng!pass';

async function openSecurity(adapter = fakeSettingsAdapter(), user = emailUser) {
  const view = renderWithToasts(<Settings adapter={adapter} user={user} />);
  await view.user.click(screen.getByRole('tab', { name: 'Security' }));
  return { ...view, adapter };
}

const field = (name: string) => screen.getByLabelText(name, { selector: 'input' });

describe('Settings: Security', () => {
  it('hides Save Changes on Security', async () => {
    await openSecurity();
    expect(screen.getByRole('tab', { name: 'Security', selected: true })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Change Password' })).toBeInTheDocument();
  });

  it('shows Save Changes on Profile only: Data Controls and the wallet have nothing to save', async () => {
    const { user } = renderWithToasts(
      <Settings adapter={fakeSettingsAdapter()} user={emailUser} wallet={<p>Wallet</p>} />,
    );
    const shown: Record<string, boolean> = {};
    for (const name of ['Profile', 'Security', 'Data Controls', 'Wallet']) {
      await user.click(screen.getByRole('tab', { name }));
      shown[name] = screen.queryByRole('button', { name: 'Save Changes' }) !== null;
    }
    expect(shown).toEqual({
      Profile: true,
      Security: false,
      'Data Controls': false,
      Wallet: false,
    });
  });

  it('shows and hides each password', async () => {
    const { user } = await openSecurity();
    const current = field('Current password');
    await user.type(current, 'secret');
    expect(current).toHaveAttribute('type', 'password');
    const toggles = screen.getAllByRole('button', { name: 'Show password' });
    expect(toggles).toHaveLength(3);
    await user.click(toggles[0]!);
    expect(current).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide password' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(current).toHaveAttribute('type', 'password');
  });

  it('rates the new password and ticks the requirements as it is typed', async () => {
    const { user } = await openSecurity();
    const requirements = screen.getByRole('list', { name: 'Password requirements' });
    const met = () =>
      within(requirements)
        .getAllByRole('listitem')
        .filter((li) => li.getAttribute('data-met') === 'true')
        .map((li) => li.textContent?.replace(', met', ''));
    expect(met()).toEqual([]);
    await user.type(field('New password'), 'abc');
    expect(met()).toEqual(['At least one lowercase letter']);
    expect(screen.getByText(/Password strength/)).toHaveTextContent('Very Weak');
    await user.type(field('New password'), 'DEF1');
    expect(screen.getByText(/Password strength/)).toHaveTextContent('Fair');
    await user.type(field('New password'), '!x');
    expect(met()).toHaveLength(5);
    expect(screen.getByText(/Password strength/)).toHaveTextContent('Strong');
  });

  it("says 'Passwords match' or 'Passwords do not match' as the confirmation is typed", async () => {
    const { user } = await openSecurity();
    await user.type(field('New password'), STRONG);
    await user.type(field('Confirm new password'), 'Str0ng');
    expect(field('Confirm new password')).toHaveAccessibleDescription('Passwords do not match');
    await user.type(field('Confirm new password'), '!pass');
    expect(field('Confirm new password')).toHaveAccessibleDescription('Passwords match');
  });

  it.each([
    [['', STRONG, STRONG], 'Please fill in all password fields'],
    [['Old1!pass', STRONG, 'Str0ng!pasz'], 'New passwords do not match'],
    [
      ['Old1!pass', 'weakpass1', 'weakpass1'],
      'Password does not meet requirements: At least one uppercase letter, At least one special character',
    ],
    [[STRONG, STRONG, STRONG], 'New password must be different from current password'],
  ])('refuses %j with %j and calls nothing', async ([current, next, confirm], message) => {
    const { user, adapter } = await openSecurity();
    if (current) await user.type(field('Current password'), current);
    await user.type(field('New password'), next!);
    await user.type(field('Confirm new password'), confirm!);
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(changes(adapter)).toEqual([]);
  });

  it.each([
    [apiError(400, 'Current password is incorrect'), 'Current password is incorrect'],
    [
      apiError(422, [{ loc: ['body'], msg: 'weak', type: 'value_error' }]),
      'New password does not meet security requirements. Please choose a stronger password.',
    ],
    [apiError(401), 'Authentication failed. Please try logging in again.'],
  ])('shows the server error of section 8 (%s)', async (error, message) => {
    const { user } = await openSecurity(
      fakeSettingsAdapter({ changePassword: () => Promise.reject(error) }),
    );
    await user.type(field('Current password'), 'Old1!pass');
    await user.type(field('New password'), STRONG);
    await user.type(field('Confirm new password'), STRONG);
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    await waitFor(() =>
      expect(screen.getAllByRole('alert').some((alert) => alert.textContent === message)).toBe(
        true,
      ),
    );
    // The fields stay, so a typo can be fixed.
    expect(field('New password')).toHaveValue(STRONG);
  });

  it('changes the password and clears the fields', async () => {
    const { user, adapter } = await openSecurity();
    await user.type(field('Current password'), 'Old1!pass');
    await user.type(field('New password'), STRONG);
    await user.type(field('Confirm new password'), STRONG);
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password changed successfully!')).toBeInTheDocument();
    expect(changes(adapter)).toEqual([
      {
        method: 'changePassword',
        args: [{ current_password: 'Old1!pass', new_password: STRONG }],
      },
    ]);
    await waitFor(() => expect(field('Current password')).toHaveValue(''));
    expect(field('New password')).toHaveValue('');
  });

  it.each([
    [
      'Google',
      googleUser,
      'You signed in with Google, so your password is managed by your Google account.',
    ],
    [
      'wallet',
      walletUser,
      'You signed in with your crypto wallet, so your account has no password.',
    ],
  ])('replaces the form with a notice for a %s account', async (_, account, notice) => {
    await openSecurity(undefined, account);
    expect(screen.getByRole('note')).toHaveTextContent(notice);
    expect(screen.queryByLabelText('Current password')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change Password' })).toBeNull();
  });
});
