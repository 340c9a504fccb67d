import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { apiError, deferred, fakeAuthAdapter, rejects } from '../../../fakes/auth';
import { ResetPassword } from '../../../src/auth/reset-password/ResetPassword';
import { AUTH_MESSAGES } from '../../../src/lib/messages';
import { findToast } from '../../support/toasts';
import { clearToasts, renderWithToasts } from '../render';

afterEach(clearToasts);

describe('<ResetPassword>', () => {
  it('shows and hides the password, grades it live, and resets', async () => {
    const confirm = deferred<{ message: string }>();
    const adapter = fakeAuthAdapter({ confirmPasswordReset: () => confirm.promise });
    const onNavigate = vi.fn();
    const { user } = renderWithToasts(
      <ResetPassword adapter={adapter} token="reset-1" onNavigate={onNavigate} />,
    );
    const input = screen.getByLabelText('New password');
    expect(input).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('type', 'text');

    await user.type(input, 'abcdef1');
    expect(screen.getByText('Weak')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(input).toBeInvalid();
    expect(input).toHaveAccessibleDescription(
      expect.stringContaining('Password does not meet requirements: At least 8 characters'),
    );
    expect(adapter.calls).toEqual([]);

    await user.type(input, 'gH!');
    expect(screen.getByText('Strong')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.getByRole('button', { name: 'Resetting...' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
    expect(adapter.calls).toEqual([
      { method: 'confirmPasswordReset', body: { token: 'reset-1', new_password: 'abcdef1gH!' } },
    ]);

    confirm.resolve({ message: 'ok' });
    await findToast('Password reset successfully!');
    expect(onNavigate).toHaveBeenCalledWith('/auth');
  });

  it('a refused link shows the server words under the field', async () => {
    const { user } = renderWithToasts(
      <ResetPassword
        adapter={fakeAuthAdapter({
          confirmPasswordReset: rejects(apiError(400, 'Invalid or expired reset token')),
        })}
        token="used"
      />,
    );
    await user.type(screen.getByLabelText('New password'), 'Str0ng!pass');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    await waitFor(() =>
      expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
        expect.stringContaining('Invalid or expired reset token'),
      ),
    );
  });

  it('without a token says the link is incomplete', () => {
    renderWithToasts(<ResetPassword adapter={fakeAuthAdapter()} token={null} />);
    expect(screen.getByRole('alert')).toHaveTextContent(AUTH_MESSAGES.resetLinkMissing);
  });

  it('← Back to Sign In goes to /auth', async () => {
    const onNavigate = vi.fn();
    const { user } = renderWithToasts(
      <ResetPassword adapter={fakeAuthAdapter()} token="t" onNavigate={onNavigate} />,
    );
    const back = screen.getByRole('button', { name: 'Back to Sign In' });
    expect(back).toHaveTextContent('← Back to Sign In');
    await user.click(back);
    expect(onNavigate).toHaveBeenCalledWith('/auth');
  });
});
