import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  apiError,
  emailUser,
  fakeSettingsAdapter,
  googleUser,
  sampleExport,
  walletUser,
} from '../../../fakes/settings';
import { Settings } from '../../../src/settings/Settings';
import { clearToasts, renderWithToasts } from '../render';

const created: Blob[] = [];
beforeEach(() => {
  created.length = 0;
  URL.createObjectURL = vi.fn((blob: Blob) => {
    created.push(blob);
    return 'blob:export';
  });
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => clearToasts());

async function openData(props: Partial<Parameters<typeof Settings>[0]> = {}) {
  const adapter = props.adapter ?? fakeSettingsAdapter();
  const onAccountDeleted = vi.fn();
  const view = renderWithToasts(
    <Settings user={emailUser} onAccountDeleted={onAccountDeleted} {...props} adapter={adapter} />,
  );
  await view.user.click(screen.getByRole('tab', { name: 'Data Controls' }));
  return { ...view, adapter: adapter as ReturnType<typeof fakeSettingsAdapter>, onAccountDeleted };
}

describe('Settings: export my data', () => {
  it('downloads the account as one JSON file', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = await openData();
    await user.click(screen.getByRole('button', { name: 'Export my data' }));
    expect(await screen.findByText('Your data was downloaded.')).toBeInTheDocument();
    expect(click).toHaveBeenCalledTimes(1);
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.download).toMatch(/^ayah-data-\d{4}-\d\d-\d\d\.json$/);
    expect(created[0]!.type).toBe('application/json');
    expect(JSON.parse(await created[0]!.text())).toEqual(sampleExport);
    click.mockRestore();
  });

  it('says so when the export fails', async () => {
    const { user } = await openData({
      adapter: fakeSettingsAdapter({ exportData: () => Promise.reject(apiError(500)) }),
    });
    await user.click(screen.getByRole('button', { name: 'Export my data' }));
    expect(
      await screen.findByText('Could not export your data. Please try again.'),
    ).toBeInTheDocument();
    expect(created).toEqual([]);
  });
});

describe('Settings: delete my account', () => {
  it('asks for the email typed exactly and the password; a mismatch calls nothing', async () => {
    const { user, adapter, onAccountDeleted } = await openData();
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
    const input = within(dialog).getByLabelText('Type your email (ada@example.org) to confirm');
    await user.type(input, 'someone@else.org');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(input).toHaveAccessibleDescription('That does not match. Type it exactly as shown.');
    expect(adapter.calls.some((c) => c.method === 'deleteAccount')).toBe(false);
    await user.clear(input);
    await user.type(input, 'ADA@example.org');
    await user.type(within(dialog).getByLabelText('Your password'), 'Blue-Kettle-42');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('Your account was deleted.')).toBeInTheDocument();
    expect(adapter.calls.find((c) => c.method === 'deleteAccount')?.args).toEqual([
      { confirm: 'ADA@example.org', password: 'Blue-Kettle-42' },
    ]);
    await waitFor(() => expect(onAccountDeleted).toHaveBeenCalledTimes(1));
  });

  it('cancel closes the confirmation and deletes nothing', async () => {
    const { user, adapter } = await openData();
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(adapter.calls.some((c) => c.method === 'deleteAccount')).toBe(false);
  });

  it("keeps the confirmation open with the server's refusal", async () => {
    const { user, onAccountDeleted } = await openData({
      adapter: fakeSettingsAdapter({
        deleteAccount: () => Promise.reject(apiError(400, 'Confirmation does not match')),
      }),
    });
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
    await user.type(within(dialog).getByRole('textbox'), 'ada@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox')).toHaveAccessibleDescription(
        'Confirmation does not match',
      ),
    );
    expect(onAccountDeleted).not.toHaveBeenCalled();
  });

  it('a Google account types its display name', async () => {
    const { user, adapter } = await openData({ user: googleUser });
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
    const field = within(dialog).getByLabelText('Type your display name (Gus) to confirm');
    expect(field).toHaveAccessibleDescription(
      'A Google account can be deleted within 10 minutes of signing in with Google.',
    );
    await user.type(field, 'Gus');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() =>
      expect(adapter.calls.find((c) => c.method === 'deleteAccount')?.args).toEqual([
        { confirm: 'Gus' },
      ]),
    );
  });

  it('a wallet account signs a fresh nonce; a refused signature says why', async () => {
    const signDeletion = vi
      .fn()
      .mockRejectedValueOnce(new Error('User rejected the signature request.'))
      .mockResolvedValueOnce({ message: 'nonce message', signature: '0xsig' });
    const { user, adapter } = await openData({ user: walletUser, signDeletion });
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
    expect(dialog).toHaveTextContent('Sign with your wallet to confirm.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'User rejected the signature request.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() =>
      expect(adapter.calls.find((c) => c.method === 'deleteAccount')?.args).toEqual([
        { confirm: walletUser.wallet_address, message: 'nonce message', signature: '0xsig' },
      ]),
    );
    expect(signDeletion).toHaveBeenCalledWith(walletUser.wallet_address);
  });
});
