/** What a first-time student meets on the auth screen (issue 13, items 1, 3–6 and 8). */
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { apiError, type FakeAuthAdapter, fakeAuthAdapter, rejects } from '../../../fakes/auth';
import { AuthScreen, type AuthScreenProps } from '../../../src/auth/sign-in/AuthScreen';
import { TAGLINE_TYPED_KEY } from '../../../src/auth/tagline/Tagline';
import { toast } from '../../../src/ui/toast';
import { typedTagline } from '../../support/tagline';
import { findToast } from '../../support/toasts';
import { clearToasts, renderWithToasts } from '../render';

afterEach(() => {
  clearToasts();
  sessionStorage.clear();
});

function screenWith(
  props: Partial<Omit<AuthScreenProps, 'adapter'>> & { adapter?: FakeAuthAdapter } = {},
) {
  const adapter = props.adapter ?? fakeAuthAdapter();
  const onNavigate = vi.fn();
  const redirect = vi.fn();
  const view = renderWithToasts(
    <AuthScreen
      adapter={adapter}
      onSignedIn={vi.fn()}
      onNavigate={onNavigate}
      redirect={redirect}
      ethereum={null}
      reducedMotion
      {...props}
    />,
  );
  return { ...view, adapter, onNavigate, redirect };
}

describe('<AuthScreen> on a first run', () => {
  it('disables Google with a short reason when the server has it off, and never redirects', async () => {
    const adapter = fakeAuthAdapter({
      providers: async () => ({ email: true, google: false, wallet: true }),
    });
    const { redirect } = screenWith({ adapter });
    const google = screen.getByRole('button', { name: 'Continue with Google' });
    await waitFor(() => expect(google).toBeDisabled());
    expect(google).toHaveAccessibleDescription('Google sign-in is not set up for this school.');
    await userEvent.click(google);
    expect(redirect).not.toHaveBeenCalled();
  });

  it('keeps Google on when the server offers it', async () => {
    const adapter = fakeAuthAdapter({
      providers: async () => ({ email: true, google: true, wallet: true }),
    });
    screenWith({ adapter });
    await waitFor(() => expect(adapter.calls.map((c) => c.method)).toContain('providers'));
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
  });

  it('shows every sign-up error at once, each tied to its field, focus on the first', async () => {
    const user = userEvent.setup();
    const { adapter } = screenWith({ mode: 'signUp' });
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const name = screen.getByLabelText('Full name');
    expect(name).toHaveAccessibleDescription('Name is required');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is required');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      expect.stringContaining('Password is required'),
    );
    expect(name).toHaveFocus();
    expect(adapter.calls).toEqual([]);

    await user.type(name, 'Ada');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByLabelText('Email')).toHaveFocus();
    expect(screen.queryByText('Name is required')).not.toBeInTheDocument();
  });

  it('says that signing up agrees to the Terms and the Privacy notice, both linked', async () => {
    const { onNavigate } = screenWith({ mode: 'signUp' });
    expect(screen.getByText(/By signing up you agree to the/)).toHaveTextContent(
      'By signing up you agree to the Terms and the Privacy notice.',
    );
    expect(screen.getByRole('link', { name: 'Terms' })).toHaveAttribute('href', '/terms');
    const privacy = screen.getByRole('link', { name: 'Privacy notice' });
    expect(privacy).toHaveAttribute('href', '/privacy');
    await userEvent.click(privacy);
    expect(onNavigate).toHaveBeenCalledWith('/privacy');
  });

  it('answers an unverified sign-in with the spec message and a Resend that reports the cooldown', async () => {
    const user = userEvent.setup();
    const adapter = fakeAuthAdapter({
      login: rejects(apiError(403, 'Email not verified')),
      resendVerification: async () => ({
        message: 'An email was sent recently.',
        retry_after: 42,
      }),
    });
    screenWith({ adapter, mode: 'signIn' });
    await user.type(screen.getByLabelText('Email'), ' ada@example.org ');
    await user.type(screen.getByLabelText('Password'), 'Blue-Kettle-42');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const notice = await screen.findByText(
      'Your account has not been email verified. Please check your email and verify to continue.',
    );
    expect(notice.closest('[role="alert"]')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(
      await screen.findByText(
        'An email was sent recently. You can ask for another email in 42 seconds.',
      ),
    ).toBeInTheDocument();
    expect(adapter.calls.at(-1)).toEqual({
      method: 'resendVerification',
      body: { email: 'ada@example.org' },
    });
  });

  it('dismisses an earlier error toast when the sign-in succeeds', async () => {
    const user = userEvent.setup();
    let fail = true;
    const adapter = fakeAuthAdapter({
      login: async () => {
        if (fail) throw apiError(401, 'Invalid email or password');
        return (await fakeAuthAdapter().login({ email: '', password: '' }))!;
      },
    });
    screenWith({ adapter, mode: 'signIn' });
    await user.type(screen.getByLabelText('Email'), 'ada@example.org');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await findToast('Invalid email or password. Please check your credentials.', 'alert');
    fail = false;
    const dismiss = vi.spyOn(toast, 'dismiss');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await findToast('Signed in successfully!');
    expect(dismiss).toHaveBeenCalledWith(undefined);
    dismiss.mockRestore();
  });

  it('types the tagline once per visit: a second screen shows it whole', () => {
    vi.useFakeTimers();
    try {
      const typed = typedTagline;
      const first = screenWith({ reducedMotion: false, tagline: 'Hi' });
      expect(typed(first.container)).toBe('|');
      act(() => vi.advanceTimersByTime(200));
      expect(typed(first.container)).toBe('Hi');
      expect(sessionStorage.getItem(TAGLINE_TYPED_KEY)).toBe('1');
      first.unmount();
      const second = screenWith({ reducedMotion: false, tagline: 'Hi' });
      expect(typed(second.container)).toBe('Hi');
    } finally {
      vi.useRealTimers();
    }
  });
});
