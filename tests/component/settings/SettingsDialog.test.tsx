import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { emailUser, fakeSettingsAdapter } from '../../../fakes/settings';
import { Settings } from '../../../src/settings/Settings';
import { SettingsDialog } from '../../../src/settings/SettingsDialog';
import { clearToasts, renderWithToasts } from '../render';

afterEach(() => clearToasts());

describe('Settings as tabs and as a popup', () => {
  it('moves between the sections with the arrow keys, and shows the wallet tab when given one', async () => {
    const { user } = renderWithToasts(
      <Settings adapter={fakeSettingsAdapter()} user={emailUser} wallet={<p>The wallet</p>} />,
    );
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
    expect(tabs).toEqual(['Profile', 'Security', 'Data Controls', 'Wallet']);
    screen.getByRole('tab', { name: 'Profile' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Security' })).toHaveFocus();
    expect(screen.getByRole('tabpanel', { name: 'Security' })).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Wallet', selected: true })).toHaveFocus();
    expect(screen.getByText('The wallet')).toBeInTheDocument();
  });

  it('opens as a dialog named Settings, without a page heading, and closes', async () => {
    const onOpenChange = vi.fn();
    const { user } = renderWithToasts(
      <SettingsDialog
        open
        onOpenChange={onOpenChange}
        adapter={fakeSettingsAdapter()}
        user={emailUser}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    expect(within(dialog).queryByRole('heading', { level: 1 })).toBeNull();
    expect(
      within(dialog).getByRole('heading', { name: 'Profile Information' }),
    ).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});
