import type { Meta, StoryObj } from '@storybook/react-vite';
import { Settings, SettingsDialog } from 'ayah-coach/settings';
import { Wallet } from 'ayah-coach/wallet';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';

import {
  apiError,
  emailUser,
  fakeSettingsAdapter,
  googleUser,
  walletUser,
} from '../../fakes/settings';
import { fakeWalletAdapter } from '../../fakes/wallet';
import { clearToasts, findToast, toastsSettled } from '../support';

const meta = {
  title: 'Settings/Settings',
  component: Settings,
  // The app's four tabs: Profile, Security, Data Controls and the wallet.
  args: {
    adapter: fakeSettingsAdapter(),
    user: emailUser,
    wallet: <Wallet adapter={fakeWalletAdapter()} headingLevel="h2" className="ay:p-0" />,
  },
  beforeEach: clearToasts,
} satisfies Meta<typeof Settings>;

export default meta;
type Story = StoryObj<typeof meta>;

const STRONG = 'Str0ng!pass';

const tab = (canvasElement: HTMLElement, name: string) =>
  userEvent.click(within(canvasElement).getByRole('tab', { name }));

/** Types the three password fields and submits. */
async function changePassword(
  canvasElement: HTMLElement,
  current: string,
  next: string,
  confirm: string,
) {
  await tab(canvasElement, 'Security');
  const canvas = within(canvasElement);
  if (current)
    await userEvent.type(canvas.getByLabelText('Current password', { selector: 'input' }), current);
  if (next)
    await userEvent.type(canvas.getByLabelText('New password', { selector: 'input' }), next);
  if (confirm)
    await userEvent.type(
      canvas.getByLabelText('Confirm new password', { selector: 'input' }),
      confirm,
    );
  await userEvent.click(canvas.getByRole('button', { name: 'Change Password' }));
}

const expectAlert = async (canvasElement: HTMLElement, text: string) =>
  waitFor(() =>
    expect(
      within(canvasElement)
        .getAllByRole('alert')
        .map((alert) => alert.textContent),
    ).toContain(text),
  );

/** The Profile section on the page: Profile Information, email read-only, Save Changes. */
export const Profile: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(canvas.getByRole('heading', { name: 'Profile Information' })).toBeVisible();
    await expect(canvas.getByLabelText('Email')).toHaveAttribute('readonly');
    await expect(canvas.getByRole('button', { name: 'Save Changes' })).toBeVisible();
    // The same four tabs as the app's /settings.
    await expect(canvas.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Profile',
      'Security',
      'Data Controls',
      'Wallet',
    ]);
  },
};

/** Settings as the phone's popup, on Profile. */
export const ProfilePopup: Story = {
  render: (args) => <SettingsDialog {...args} open onOpenChange={() => {}} />,
  play: async () => {
    const dialog = await screen.findByRole('dialog', { name: 'Settings' });
    await expect(
      within(dialog).getByRole('heading', { name: 'Profile Information' }),
    ).toBeInTheDocument();
    await expect(within(dialog).getByRole('button', { name: 'Save Changes' })).toBeInTheDocument();
  },
};

/** Saved: the trimmed name, and a toast. */
export const ProfileSaved: Story = {
  play: async ({ canvasElement }) => {
    const name = within(canvasElement).getByLabelText('Display name');
    await userEvent.clear(name);
    await userEvent.type(name, '  Ada Lovelace  ');
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Save Changes' }));
    await findToast('Profile updated successfully!');
  },
};

/** Name and bio both empty: 'No changes to save'. */
export const NoChangesToSave: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.clear(canvas.getByLabelText('Display name'));
    await userEvent.clear(canvas.getByLabelText('Bio'));
    await userEvent.click(canvas.getByRole('button', { name: 'Save Changes' }));
    await expect(canvas.getByLabelText('Bio')).toHaveAccessibleDescription('No changes to save');
    await toastsSettled();
  },
};

/** The server refused the save: 'Failed to update profile. Please try again.' */
export const ProfileSaveFailed: Story = {
  args: { adapter: fakeSettingsAdapter({ updateProfile: () => Promise.reject(apiError(500)) }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Bio'), ' And science.');
    await userEvent.click(canvas.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(canvas.getByLabelText('Bio')).toHaveAccessibleDescription(
        'Failed to update profile. Please try again.',
      ),
    );
    await expect(canvas.getByLabelText('Bio')).toHaveValue('I like maths. And science.');
    await toastsSettled();
  },
};

const upload = (canvasElement: HTMLElement, file: File) =>
  userEvent
    .setup({ applyAccept: false })
    .upload(within(canvasElement).getByLabelText('Profile picture file'), file);

/** A file that is not an image: 'Please select an image file'. */
export const AvatarNotImage: Story = {
  play: async ({ canvasElement }) => {
    await upload(canvasElement, new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }));
    await expectAlert(canvasElement, 'Please select an image file');
  },
};

/** An image of 5 MB: 'File size must be less than 5MB'. */
export const AvatarTooLarge: Story = {
  play: async ({ canvasElement }) => {
    await upload(
      canvasElement,
      new File([new Uint8Array(5 * 1024 * 1024)], 'big.png', { type: 'image/png' }),
    );
    await expectAlert(canvasElement, 'File size must be less than 5MB');
  },
};

/** The upload failed: 'Failed to upload profile picture', the old picture back. */
export const AvatarUploadFailed: Story = {
  args: { adapter: fakeSettingsAdapter({ uploadAvatar: () => Promise.reject(apiError(500)) }) },
  play: async ({ canvasElement }) => {
    await upload(canvasElement, new File([new Uint8Array(64)], 'me.png', { type: 'image/png' }));
    await expectAlert(canvasElement, 'Failed to upload profile picture');
  },
};

/** Security on the page: no Save Changes; show/hide, strength and requirements. */
export const Security: Story = {
  play: async ({ canvasElement }) => {
    await tab(canvasElement, 'Security');
    const canvas = within(canvasElement);
    await expect(canvas.queryByRole('button', { name: 'Save Changes' })).toBeNull();
    const next = canvas.getByLabelText('New password', { selector: 'input' });
    await userEvent.type(next, 'abcDEF12');
    await expect(canvas.getByText(/Password strength/)).toHaveTextContent('Good');
    await userEvent.click(canvas.getAllByRole('button', { name: 'Show password' })[1]!);
    await expect(next).toHaveAttribute('type', 'text');
  },
};

/** Security in the phone's popup. */
export const SecurityPopup: Story = {
  render: (args) => (
    <SettingsDialog {...args} open onOpenChange={() => {}} defaultSection="security" />
  ),
  play: async () => {
    const dialog = await screen.findByRole('dialog', { name: 'Settings' });
    await expect(
      within(dialog).getByRole('tab', { name: 'Security', selected: true }),
    ).toBeInTheDocument();
    await expect(within(dialog).queryByRole('button', { name: 'Save Changes' })).toBeNull();
  },
};

/** The confirmation matches. */
export const PasswordsMatch: Story = {
  play: async ({ canvasElement }) => {
    await tab(canvasElement, 'Security');
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('New password', { selector: 'input' }), STRONG);
    await userEvent.type(
      canvas.getByLabelText('Confirm new password', { selector: 'input' }),
      STRONG,
    );
    await expect(canvas.getByText('Passwords match')).toBeInTheDocument();
  },
};

/** The confirmation differs. */
export const PasswordsDoNotMatch: Story = {
  play: async ({ canvasElement }) => {
    await tab(canvasElement, 'Security');
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('New password', { selector: 'input' }), STRONG);
    await userEvent.type(
      canvas.getByLabelText('Confirm new password', { selector: 'input' }),
      'Str0ng',
    );
    await expect(canvas.getByText('Passwords do not match')).toBeVisible();
  },
};

/** A field left empty. */
export const FillAllFields: Story = {
  play: async ({ canvasElement }) => {
    await changePassword(canvasElement, '', STRONG, STRONG);
    await expectAlert(canvasElement, 'Please fill in all password fields');
  },
};

/** New and confirmation differ. */
export const NewPasswordsDiffer: Story = {
  play: async ({ canvasElement }) => {
    await changePassword(canvasElement, 'Old1!pass', STRONG, 'Str0ng!pasz');
    await expectAlert(canvasElement, 'New passwords do not match');
  },
};

/** The new password misses requirements. */
export const WeakPassword: Story = {
  play: async ({ canvasElement }) => {
    await changePassword(canvasElement, 'Old1!pass', 'weakpass', 'weakpass');
    await expectAlert(
      canvasElement,
      'Password does not meet requirements: At least one uppercase letter, At least one number, At least one special character',
    );
  },
};

/** The new password is the current one. */
export const SameAsCurrent: Story = {
  play: async ({ canvasElement }) => {
    await changePassword(canvasElement, STRONG, STRONG, STRONG);
    await expectAlert(canvasElement, 'New password must be different from current password');
  },
};

/** The server: 'Current password is incorrect'. */
export const CurrentPasswordIncorrect: Story = {
  args: {
    adapter: fakeSettingsAdapter({
      changePassword: () => Promise.reject(apiError(400, 'Current password is incorrect')),
    }),
  },
  play: async ({ canvasElement }) => {
    await changePassword(canvasElement, 'Wr0ng!pass', STRONG, STRONG);
    await expectAlert(canvasElement, 'Current password is incorrect');
  },
};

/** The server found the new password weak. */
export const ServerWeakPassword: Story = {
  args: {
    adapter: fakeSettingsAdapter({
      changePassword: () =>
        Promise.reject(apiError(422, [{ loc: ['body'], msg: 'weak', type: 'value_error' }])),
    }),
  },
  play: async ({ canvasElement }) => {
    await changePassword(canvasElement, 'Old1!pass', STRONG, STRONG);
    await expectAlert(
      canvasElement,
      'New password does not meet security requirements. Please choose a stronger password.',
    );
  },
};

/** The session is gone. */
export const AuthenticationFailed: Story = {
  args: { adapter: fakeSettingsAdapter({ changePassword: () => Promise.reject(apiError(401)) }) },
  play: async ({ canvasElement }) => {
    await changePassword(canvasElement, 'Old1!pass', STRONG, STRONG);
    await expectAlert(canvasElement, 'Authentication failed. Please try logging in again.');
  },
};

/** Changed: a toast, the fields cleared. */
export const PasswordChanged: Story = {
  play: async ({ canvasElement }) => {
    await changePassword(canvasElement, 'Old1!pass', STRONG, STRONG);
    await findToast('Password changed successfully!');
    await expect(
      within(canvasElement).getByLabelText('Current password', { selector: 'input' }),
    ).toHaveValue('');
  },
};

/** A Google account: the notice instead of the form. */
export const GoogleUserNotice: Story = {
  args: { user: googleUser },
  play: async ({ canvasElement }) => {
    await tab(canvasElement, 'Security');
    await expect(within(canvasElement).getByRole('note')).toHaveTextContent(
      'You signed in with Google, so your password is managed by your Google account. Change it there.',
    );
  },
};

/** A wallet account: the notice instead of the form. */
export const WalletUserNotice: Story = {
  args: { user: walletUser },
  play: async ({ canvasElement }) => {
    await tab(canvasElement, 'Security');
    await expect(within(canvasElement).getByRole('note')).toHaveTextContent(
      'You signed in with your crypto wallet, so your account has no password.',
    );
  },
};

/** The wallet tab, holding the wallet. */
export const WalletSection: Story = {
  args: {
    wallet: <Wallet adapter={fakeWalletAdapter()} headingLevel="h2" className="ay:p-0" />,
    defaultSection: 'wallet',
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('tab', { name: 'Wallet', selected: true })).toBeVisible();
    await expect(await canvas.findByText('Points balance')).toBeVisible();
  },
};

/** The wallet tab in the popup. */
export const WalletPopup: Story = {
  render: (args) => (
    <SettingsDialog
      {...args}
      open
      onOpenChange={() => {}}
      defaultSection="wallet"
      wallet={<Wallet adapter={fakeWalletAdapter()} headingLevel="h2" className="ay:p-0" />}
    />
  ),
  play: async () => {
    const dialog = await screen.findByRole('dialog', { name: 'Settings' });
    await waitFor(() => expect(dialog).toHaveTextContent('1,250 points'));
  },
};
