import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { apiError, changes, emailUser, fakeSettingsAdapter } from '../../../fakes/settings';
import { Settings } from '../../../src/settings/Settings';
import { clearToasts, renderWithToasts } from '../render';

afterEach(() => clearToasts());

function file(name: string, type: string, size = 1024) {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

describe('Settings: Profile', () => {
  it('shows Profile Information with the email read-only and Save Changes', () => {
    renderWithToasts(<Settings adapter={fakeSettingsAdapter()} user={emailUser} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Profile', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Profile Information' })).toBeInTheDocument();
    expect(screen.getByLabelText('Display name')).toHaveValue('Ada');
    expect(screen.getByLabelText('Bio')).toHaveValue('I like maths.');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeInTheDocument();
  });

  it("says 'No changes to save' for empty fields and calls nothing", async () => {
    const adapter = fakeSettingsAdapter();
    const { user } = renderWithToasts(<Settings adapter={adapter} user={emailUser} />);
    await user.clear(screen.getByLabelText('Display name'));
    await user.clear(screen.getByLabelText('Bio'));
    await user.type(screen.getByLabelText('Bio'), '   ');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(screen.getByLabelText('Bio')).toHaveAccessibleDescription('No changes to save');
    expect(changes(adapter)).toEqual([]);
  });

  it('saves the trimmed name and bio and hands the host the fresher user', async () => {
    const adapter = fakeSettingsAdapter();
    const onUserChange = vi.fn();
    const { user } = renderWithToasts(
      <Settings adapter={adapter} user={emailUser} onUserChange={onUserChange} />,
    );
    await user.clear(screen.getByLabelText('Display name'));
    await user.type(screen.getByLabelText('Display name'), '  Ada L.  ');
    await user.click(screen.getByRole('button', { name: 'Science', pressed: false }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(changes(adapter)).toEqual([
      {
        method: 'updateProfile',
        args: [{ display_name: 'Ada L.', bio: 'I like maths.', interests: ['math', 'science'] }],
      },
    ]);
    expect(onUserChange).toHaveBeenCalledWith(expect.objectContaining({ display_name: 'Ada L.' }));
  });

  it("keeps the edits when saving fails: 'Failed to update profile. Please try again.'", async () => {
    const adapter = fakeSettingsAdapter({ updateProfile: () => Promise.reject(apiError(500)) });
    const { user } = renderWithToasts(<Settings adapter={adapter} user={emailUser} />);
    await user.type(screen.getByLabelText('Bio'), ' More.');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Bio')).toHaveAccessibleDescription(
        'Failed to update profile. Please try again.',
      ),
    );
    expect(screen.getByLabelText('Bio')).toHaveValue('I like maths. More.');
  });

  it("refuses a file that is not an image: 'Please select an image file'", async () => {
    const adapter = fakeSettingsAdapter();
    const { user } = renderWithToasts(<Settings adapter={adapter} user={emailUser} />, {
      applyAccept: false,
    });
    await user.upload(
      screen.getByLabelText('Profile picture file'),
      file('notes.pdf', 'application/pdf'),
    );
    expect(screen.getByText('Please select an image file', { selector: 'p' })).toHaveAttribute(
      'role',
      'alert',
    );
    expect(screen.getByRole('button', { name: 'Upload photo' })).toHaveAccessibleDescription(
      'Please select an image file',
    );
    expect(changes(adapter)).toEqual([]);
  });

  it("refuses an image of 5 MB: 'File size must be less than 5MB'", async () => {
    const adapter = fakeSettingsAdapter();
    const { user } = renderWithToasts(<Settings adapter={adapter} user={emailUser} />);
    await user.upload(
      screen.getByLabelText('Profile picture file'),
      file('big.png', 'image/png', 5 * 1024 * 1024),
    );
    expect(screen.getByRole('button', { name: 'Upload photo' })).toHaveAccessibleDescription(
      'File size must be less than 5MB',
    );
    expect(changes(adapter)).toEqual([]);
  });

  it('uploads an image and shows the new avatar', async () => {
    const adapter = fakeSettingsAdapter();
    const { user } = renderWithToasts(<Settings adapter={adapter} user={emailUser} />);
    await user.upload(screen.getByLabelText('Profile picture file'), file('me.png', 'image/png'));
    expect(await screen.findByRole('img', { name: 'Your avatar' })).toHaveAttribute(
      'src',
      'https://example.org/avatar.png',
    );
    expect(changes(adapter).map((c) => c.method)).toEqual(['uploadAvatar']);
  });

  it("says 'Failed to upload profile picture' when the upload fails", async () => {
    const adapter = fakeSettingsAdapter({ uploadAvatar: () => Promise.reject(apiError(500)) });
    const { user } = renderWithToasts(<Settings adapter={adapter} user={emailUser} />);
    await user.upload(screen.getByLabelText('Profile picture file'), file('me.png', 'image/png'));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Upload photo' })).toHaveAccessibleDescription(
        'Failed to upload profile picture',
      ),
    );
    expect(screen.queryByRole('img', { name: 'Your avatar' })).toBeNull();
  });
});
