import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  apiError,
  type FakeAuthAdapter,
  fakeAuthAdapter,
  never,
  REFRESH,
  rejects,
  TOKEN,
} from '../../../fakes/auth';
import { fakeEip1193 } from '../../../fakes/eip1193';
import { AuthScreen, type AuthScreenProps } from '../../../src/auth/sign-in/AuthScreen';
import { typedTagline } from '../../support/tagline';
import { findToast } from '../../support/toasts';
import { clearToasts, renderWithToasts } from '../render';

afterEach(clearToasts);

function screenWith(
  props: Partial<Omit<AuthScreenProps, 'adapter'>> & { adapter?: FakeAuthAdapter } = {},
) {
  const adapter = props.adapter ?? fakeAuthAdapter();
  const onSignedIn = vi.fn();
  const onNavigate = vi.fn();
  const redirect = vi.fn();
  const view = renderWithToasts(
    <AuthScreen
      adapter={adapter}
      onSignedIn={onSignedIn}
      onNavigate={onNavigate}
      redirect={redirect}
      ethereum={null}
      reducedMotion
      {...props}
    />,
  );
  return { ...view, adapter, onSignedIn, onNavigate, redirect };
}

describe('<AuthScreen>', () => {
  it('offers the three choices under the tagline', () => {
    screenWith();
    expect(screen.getByRole('heading', { level: 1, name: 'Ayah' })).toBeInTheDocument();
    expect(
      screen.getByText('Your AI learning coach', { selector: '.ay\\:sr-only' }),
    ).toBeInTheDocument();
    for (const name of ['Continue with MetaMask', 'Continue with Google', 'Continue with Email']) {
      expect(screen.getByRole('button', { name })).toBeEnabled();
    }
  });

  // Issue 25 item 5: a child (and a parent looking on) first sees email; the crypto wallet comes last.
  it('puts email first and the wallet last', () => {
    screenWith();
    const choices = screen
      .getByRole('heading', { name: 'Welcome! How would you like to continue?' })
      .closest('section')!;
    expect(
      within(choices)
        .getAllByRole('button')
        .map((b) => b.textContent?.trim()),
    ).toEqual(['Continue with Email', 'Continue with Google', 'Continue with MetaMask']);
  });

  it('types the tagline at 80 ms a character unless motion is reduced', () => {
    vi.useFakeTimers();
    try {
      const { container } = screenWith({ reducedMotion: false, tagline: 'Coach' });
      // What shows: the typed part and, while typing, the caret at its end.
      const typed = () => typedTagline(container);
      expect(typed()).toBe('|');
      act(() => vi.advanceTimersByTime(160));
      expect(typed()).toBe('Co|');
      act(() => vi.advanceTimersByTime(240));
      expect(typed()).toBe('Coach');
    } finally {
      vi.useRealTimers();
    }
  });

  it('signs in with email and password, by keyboard', async () => {
    const { user, adapter, onSignedIn } = screenWith();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Continue with Email' })).toHaveFocus();
    await user.keyboard('{Enter}');

    expect(screen.getByRole('heading', { name: 'Sign in' })).toHaveFocus();
    await user.type(screen.getByLabelText('Email'), 'ada@example.org');
    await user.type(screen.getByLabelText('Password'), 'Str0ng!pass{Enter}');

    await findToast('Signed in successfully!');
    expect(onSignedIn).toHaveBeenCalledWith(TOKEN, REFRESH);
    expect(adapter.calls).toEqual([
      { method: 'login', body: { email: 'ada@example.org', password: 'Str0ng!pass' } },
    ]);
  });

  it('shows the button busy while signing in, and the mapped error toast after', async () => {
    const { user } = screenWith({
      adapter: fakeAuthAdapter({ login: rejects(apiError(401, 'Invalid email or password')) }),
    });
    await user.click(screen.getByRole('button', { name: 'Continue with Email' }));
    await user.type(screen.getByLabelText('Email'), 'ada@example.org');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await findToast('Invalid email or password. Please check your credentials.', 'alert');
  });

  it('marks the submit button busy while the call runs', async () => {
    const { user } = screenWith({ adapter: fakeAuthAdapter({ login: never }) });
    await user.click(screen.getByRole('button', { name: 'Continue with Email' }));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveAttribute('aria-busy', 'true');
  });

  it('signs up: validation under the field, live requirements, then /verify-email', async () => {
    const { user, adapter, onNavigate } = screenWith();
    await user.click(screen.getByRole('button', { name: 'Continue with Email' }));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const name = screen.getByLabelText('Full name');
    expect(name).toBeInvalid();
    expect(name).toHaveAccessibleDescription('Name is required');
    expect(screen.getAllByRole('alert')[0]).toHaveTextContent('Name is required');

    await user.type(name, 'Ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.org');
    const password = screen.getByLabelText('Password');
    await user.type(password, 'abc');
    expect(screen.getByText('Very Weak')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(password).toHaveAccessibleDescription(
      expect.stringContaining('Password does not meet requirements: At least 8 characters'),
    );

    await user.clear(password);
    await user.type(password, 'Str0ng!pass');
    expect(screen.getByText('Strong')).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Password requirements' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .every((item) => item.dataset.met === 'true'),
    ).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    await waitFor(() =>
      expect(onNavigate).toHaveBeenCalledWith('/verify-email?email=ada%40example.org'),
    );
    expect(adapter.calls[0]?.body).toMatchObject({
      agreed_to_terms: true,
      agreed_to_privacy: true,
    });
  });

  it('opens in sign-up mode for /register', () => {
    screenWith({ mode: 'signUp' });
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
  });

  it('sends a password reset link, and shows a failure under the field', async () => {
    let fail = true;
    const adapter = fakeAuthAdapter({
      requestPasswordReset: async () => {
        if (fail) throw apiError(500);
        return { message: 'ok' };
      },
    });
    const { user } = screenWith({ adapter });
    await user.click(screen.getByRole('button', { name: 'Continue with Email' }));
    await user.type(screen.getByLabelText('Email'), 'ada@example.org');
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));

    expect(screen.getByRole('heading', { name: 'Reset your password' })).toHaveFocus();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('ada@example.org');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    await waitFor(() =>
      expect(email).toHaveAccessibleDescription('Failed to send reset email. Please try again.'),
    );

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    await findToast('Password reset email sent!');
    expect(
      screen.getByText('Check your inbox for the link to reset your password.'),
    ).toHaveAttribute('role', 'status');
    await user.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(screen.getByRole('heading', { name: 'Sign in' })).toHaveFocus();
  });

  it('sends Google sign-in to the adapter URL', async () => {
    const { user, redirect } = screenWith();
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(redirect).toHaveBeenCalledWith('https://api.example.org/api/v1/auth/google/login');
  });

  it('says so when the page cannot leave for Google', async () => {
    const redirect = vi.fn(() => {
      throw new Error('blocked');
    });
    const { user } = screenWith({ redirect });
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    await findToast('Failed to sign in with Google. Please try again.', 'alert');
    expect(screen.getByRole('button', { name: 'Continue with Google' })).not.toHaveAttribute(
      'aria-busy',
    );
  });

  it('MetaMask missing: an alert with a link to get it', async () => {
    const { user } = screenWith({ ethereum: null });
    await user.click(screen.getByRole('button', { name: 'Continue with MetaMask' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'MetaMask is not installed. Please install MetaMask extension.',
    );
    expect(within(alert).getByRole('link', { name: /Get MetaMask/ })).toHaveAttribute(
      'href',
      'https://metamask.io/download/',
    );
  });

  it('signs in with MetaMask', async () => {
    const provider = fakeEip1193();
    const { user, onSignedIn } = screenWith({ ethereum: provider });
    await user.click(screen.getByRole('button', { name: 'Continue with MetaMask' }));
    await screen.findByText(/^Connected as 0x2c75…5c23$/);
    expect(onSignedIn).toHaveBeenCalledWith(TOKEN, REFRESH);
    expect(provider.requests.map((r) => r.method)).toEqual([
      'eth_requestAccounts',
      'personal_sign',
    ]);
  });

  it('MetaMask rejected: the 4001 message', async () => {
    const { user } = screenWith({ ethereum: fakeEip1193({ mode: 'rejectSign' }) });
    await user.click(screen.getByRole('button', { name: 'Continue with MetaMask' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'User rejected the signature request.',
    );
  });
});
