import type { Meta, StoryObj } from '@storybook/react-vite';
import { Settings, SettingsDialog } from 'ayah-coach/settings';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';

import {
  apiError,
  archivedSessions,
  emailUser,
  fakeSettingsAdapter,
  googleUser,
  never,
  walletUser,
} from '../../fakes/settings';
import { clearToasts, findToast } from '../support';

/** Data Controls: the archived chats, archive all, delete all, export and delete account. */
const meta = {
  title: 'Settings/Data Controls',
  component: Settings,
  args: { adapter: fakeSettingsAdapter(), user: emailUser, defaultSection: 'data' },
  beforeEach: clearToasts,
} satisfies Meta<typeof Settings>;

export default meta;
type Story = StoryObj<typeof meta>;

const archived = (canvasElement: HTMLElement) =>
  within(canvasElement).findByRole('list', { name: 'Archived chats' });

/** Clicks `button`, then the confirmation's `label`; returns the confirmation. */
async function confirmed(
  canvasElement: HTMLElement,
  button: string,
  title: string,
  label?: string,
) {
  await archived(canvasElement);
  await userEvent.click(within(canvasElement).getByRole('button', { name: button }));
  const dialog = await screen.findByRole('alertdialog', { name: title });
  if (label) await userEvent.click(within(dialog).getByRole('button', { name: label }));
  return dialog;
}

/** A few archived chats, each with Unarchive and Delete. */
export const Archived: Story = {
  play: async ({ canvasElement }) => {
    const list = await archived(canvasElement);
    await expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    await expect(
      within(list).getByRole('button', { name: 'Unarchive Archived chat 1' }),
    ).toBeEnabled();
  },
};

/** Nothing archived. */
export const ArchivedEmpty: Story = {
  args: { adapter: fakeSettingsAdapter({}, { archived: [] }) },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('No archived chats.')).toBeInTheDocument();
  },
};

/** A full first page of 50, and a Next page. */
export const ArchivedFull: Story = {
  args: { adapter: fakeSettingsAdapter({}, { archived: archivedSessions(60) }) },
  play: async ({ canvasElement }) => {
    const list = await archived(canvasElement);
    await expect(within(list).getAllByRole('listitem')).toHaveLength(50);
    const pages = within(canvasElement).getByRole('navigation', { name: 'Archived chat pages' });
    await expect(within(pages).getByRole('button', { name: 'Next' })).toBeEnabled();
  },
};

/** The second page. */
export const ArchivedPaging: Story = {
  args: { adapter: fakeSettingsAdapter({}, { archived: archivedSessions(60) }) },
  play: async ({ canvasElement }) => {
    await archived(canvasElement);
    const pages = within(canvasElement).getByRole('navigation', { name: 'Archived chat pages' });
    await userEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    await expect(await within(canvasElement).findByText('Archived chat 60')).toBeVisible();
    await expect(within(pages).getByText('Page 2')).toBeVisible();
    await expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
  },
};

/** The archive could not be read: a retry. */
export const ArchivedFailed: Story = {
  args: { adapter: fakeSettingsAdapter({ listArchived: () => Promise.reject(apiError(500)) }) },
  play: async ({ canvasElement }) => {
    const alert = await within(canvasElement).findByRole('alert');
    await expect(alert).toHaveTextContent('Could not load archived chats.');
  },
};

/** Unarchived: the spec's toast. */
export const Unarchived: Story = {
  // Its own fake: the action changes the archive the fake holds.
  args: { adapter: fakeSettingsAdapter() },
  play: async ({ canvasElement }) => {
    const list = await archived(canvasElement);
    await userEvent.click(within(list).getByRole('button', { name: 'Unarchive Archived chat 1' }));
    await findToast('Chat unarchived successfully');
  },
};

/** Unarchiving failed: 'Failed to unarchive chat'. */
export const UnarchiveFailed: Story = {
  args: { adapter: fakeSettingsAdapter({ unarchiveSession: () => Promise.reject(apiError(500)) }) },
  play: async ({ canvasElement }) => {
    const list = await archived(canvasElement);
    await userEvent.click(within(list).getByRole('button', { name: 'Unarchive Archived chat 1' }));
    await findToast('Failed to unarchive chat', 'alert');
  },
};

/** Deleting one archived chat asks first. */
export const DeleteArchivedConfirmation: Story = {
  play: async ({ canvasElement }) => {
    const dialog = await confirmed(
      canvasElement,
      'Delete Archived chat 2',
      'Delete archived chat?',
    );
    await expect(dialog).toHaveTextContent('"Archived chat 2" will be deleted for good.');
    await expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
  },
};

/** Deleting one failed: 'Failed to delete chat'. */
export const DeleteArchivedFailed: Story = {
  args: {
    adapter: fakeSettingsAdapter({ deleteArchivedSession: () => Promise.reject(apiError(500)) }),
  },
  play: async ({ canvasElement }) => {
    await confirmed(canvasElement, 'Delete Archived chat 1', 'Delete archived chat?', 'Delete');
    await findToast('Failed to delete chat', 'alert');
  },
};

/** Archive all asks first. */
export const ArchiveAllConfirmation: Story = {
  play: async ({ canvasElement }) => {
    const dialog = await confirmed(canvasElement, 'Archive all chats', 'Archive all chats?');
    await expect(dialog).toHaveTextContent('Every chat moves to the archive.');
  },
};

/** Archive all, confirmed. */
export const ArchiveAllDone: Story = {
  // Its own fake: the action changes the archive the fake holds.
  args: { adapter: fakeSettingsAdapter() },
  play: async ({ canvasElement }) => {
    await confirmed(canvasElement, 'Archive all chats', 'Archive all chats?', 'Archive all');
    await findToast('All chats archived successfully');
  },
};

/** Archive all failed. */
export const ArchiveAllFailed: Story = {
  args: { adapter: fakeSettingsAdapter({ archiveAll: () => Promise.reject(apiError(500)) }) },
  play: async ({ canvasElement }) => {
    await confirmed(canvasElement, 'Archive all chats', 'Archive all chats?', 'Archive all');
    await findToast('Failed to archive all chats', 'alert');
  },
};

/** Delete all asks first. */
export const DeleteAllConfirmation: Story = {
  play: async ({ canvasElement }) => {
    const dialog = await confirmed(canvasElement, 'Delete all chats', 'Delete all chats?');
    await expect(dialog).toHaveTextContent(
      'Every chat, archived ones too, will be deleted for good.',
    );
  },
};

/** Delete all, running. */
export const DeleteAllRunning: Story = {
  args: { adapter: fakeSettingsAdapter({ deleteAll: never }) },
  play: async ({ canvasElement }) => {
    const dialog = await confirmed(
      canvasElement,
      'Delete all chats',
      'Delete all chats?',
      'Delete all',
    );
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled(),
    );
  },
};

/** Delete all, confirmed. */
export const DeleteAllDone: Story = {
  // Its own fake: the action changes the archive the fake holds.
  args: { adapter: fakeSettingsAdapter() },
  play: async ({ canvasElement }) => {
    await confirmed(canvasElement, 'Delete all chats', 'Delete all chats?', 'Delete all');
    await findToast('All chats deleted successfully');
    await expect(await within(canvasElement).findByText('No archived chats.')).toBeInTheDocument();
  },
};

/** Delete all failed. */
export const DeleteAllFailed: Story = {
  args: { adapter: fakeSettingsAdapter({ deleteAll: () => Promise.reject(apiError(500)) }) },
  play: async ({ canvasElement }) => {
    await confirmed(canvasElement, 'Delete all chats', 'Delete all chats?', 'Delete all');
    await findToast('Failed to delete all chats', 'alert');
  },
};

/** Data Controls in the phone's popup. */
export const Popup: Story = {
  render: (args) => <SettingsDialog {...args} open onOpenChange={() => {}} />,
  play: async () => {
    const dialog = await screen.findByRole('dialog', { name: 'Settings' });
    await expect(
      await within(dialog).findByRole('list', { name: 'Archived chats' }),
    ).toBeInTheDocument();
    await expect(
      within(dialog).getByRole('button', { name: 'Export my data' }),
    ).toBeInTheDocument();
  },
};

/** Exported: the JSON file is saved (the download is stubbed here) and a toast says so. */
export const Exported: Story = {
  beforeEach: () => {
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {};
    return () => {
      HTMLAnchorElement.prototype.click = click;
    };
  },
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Export my data' }));
    await findToast('Your data was downloaded.');
  },
};

/** The export is on its way. */
export const Exporting: Story = {
  args: { adapter: fakeSettingsAdapter({ exportData: never }) },
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Export my data' });
    await userEvent.click(button);
    await waitFor(() => expect(button).toBeDisabled());
  },
};

/** The export failed. */
export const ExportFailed: Story = {
  args: { adapter: fakeSettingsAdapter({ exportData: () => Promise.reject(apiError(500)) }) },
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Export my data' }));
    await findToast('Could not export your data. Please try again.', 'alert');
  },
};

const openDeletion = async (canvasElement: HTMLElement) => {
  await userEvent.click(within(canvasElement).getByRole('button', { name: 'Delete my account' }));
  return screen.findByRole('alertdialog', { name: 'Delete your account?' });
};

/** Deleting the account: type the email to confirm. */
export const DeleteAccountConfirmation: Story = {
  play: async ({ canvasElement }) => {
    const dialog = await openDeletion(canvasElement);
    await expect(
      within(dialog).getByLabelText('Type your email (ada@example.org) to confirm'),
    ).toBeInTheDocument();
  },
};

/** The typed email does not match. */
export const DeleteAccountMismatch: Story = {
  play: async ({ canvasElement }) => {
    const dialog = await openDeletion(canvasElement);
    const input = within(dialog).getByRole('textbox');
    await userEvent.type(input, 'someone@else.org');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await expect(input).toHaveAccessibleDescription(
      'That does not match. Type it exactly as shown.',
    );
  },
};

/** The server refused the deletion. */
export const DeleteAccountFailed: Story = {
  args: { adapter: fakeSettingsAdapter({ deleteAccount: () => Promise.reject(apiError(500)) }) },
  play: async ({ canvasElement }) => {
    const dialog = await openDeletion(canvasElement);
    const input = within(dialog).getByRole('textbox');
    await userEvent.type(input, 'ada@example.org');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() =>
      expect(input).toHaveAccessibleDescription('Could not delete your account. Please try again.'),
    );
  },
};

/** Deleted: the host is told, to sign out. */
export const DeleteAccountDone: Story = {
  // Its own fake: the action changes the archive the fake holds.
  args: { adapter: fakeSettingsAdapter(), onAccountDeleted: fn() },
  play: async ({ canvasElement, args }) => {
    const dialog = await openDeletion(canvasElement);
    await userEvent.type(within(dialog).getByRole('textbox'), 'ada@example.org');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await findToast('Your account was deleted.');
    await waitFor(() => expect(args.onAccountDeleted).toHaveBeenCalledTimes(1));
  },
};

/** A Google account types its display name. */
export const DeleteGoogleAccount: Story = {
  args: { user: googleUser },
  play: async ({ canvasElement }) => {
    const dialog = await openDeletion(canvasElement);
    await expect(
      within(dialog).getByLabelText('Type your display name (Gus) to confirm'),
    ).toBeInTheDocument();
  },
};

/** A wallet account signs with its wallet. */
export const DeleteWalletAccount: Story = {
  args: {
    user: walletUser,
    signDeletion: () => Promise.reject(new Error('User rejected the signature request.')),
  },
  play: async ({ canvasElement }) => {
    const dialog = await openDeletion(canvasElement);
    await expect(dialog).toHaveTextContent('Sign with your wallet to confirm.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'User rejected the signature request.',
    );
  },
};
