import { act, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  apiError,
  authResponse,
  deferred,
  fakeAuthAdapter,
  REFRESH,
  rejects,
  TOKEN,
} from '../../../fakes/auth';
import type { VerifyEmailRequest } from '../../../src/auth/auth.adapter';
import { VerifyEmail } from '../../../src/auth/verify-email/VerifyEmail';
import { findToast } from '../../support/toasts';
import { clearToasts, renderWithToasts } from '../render';

afterEach(() => {
  clearToasts();
  vi.useRealTimers();
});

describe('<VerifyEmail>', () => {
  it('without an email: Invalid Page Access, and a button to /register', async () => {
    const onNavigate = vi.fn();
    const { user } = renderWithToasts(
      <VerifyEmail adapter={fakeAuthAdapter()} onNavigate={onNavigate} />,
    );
    expect(screen.getByRole('heading', { name: 'Invalid Page Access' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'This page requires an email address. Please return to the registration page.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to registration' }));
    expect(onNavigate).toHaveBeenCalledWith('/register');
  });

  it('with an email: the next steps, a resend that says Sending..., and its banner for 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const resend = deferred<{ message: string }>();
    const adapter = fakeAuthAdapter({ resendVerification: () => resend.promise });
    const onNavigate = vi.fn();
    const { user } = renderWithToasts(
      <VerifyEmail
        adapter={adapter}
        email="ada@example.org"
        onNavigate={onNavigate}
        supportHref="mailto:help@school.example"
      />,
      { advanceTimers: (ms) => vi.advanceTimersByTime(ms) },
    );
    expect(screen.getByRole('heading', { name: 'Check Your Email' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.org')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(4);
    expect(screen.getByRole('link', { name: 'Need help? Contact support' })).toHaveAttribute(
      'href',
      'mailto:help@school.example',
    );

    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(screen.getByRole('button', { name: 'Sending...' })).toHaveAttribute('aria-busy', 'true');
    expect(adapter.calls).toEqual([
      { method: 'resendVerification', body: { email: 'ada@example.org' } },
    ]);

    await act(async () => resend.resolve({ message: 'ok' }));
    expect(screen.getByText('Verification email resent successfully!')).toHaveAttribute(
      'role',
      'status',
    );
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.queryByText('Verification email resent successfully!')).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Back to Login' }));
    expect(onNavigate).toHaveBeenCalledWith('/login');
  });

  it('a failed resend shows the message in red, as an alert', async () => {
    const { user } = renderWithToasts(
      <VerifyEmail
        adapter={fakeAuthAdapter({ resendVerification: rejects(apiError(500)) })}
        email="ada@example.org"
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to resend verification email',
    );
  });

  it('?token= verifies the link, signs in and goes on', async () => {
    const onSignedIn = vi.fn();
    const onNavigate = vi.fn();
    renderWithToasts(
      <VerifyEmail
        adapter={fakeAuthAdapter()}
        token="link-1"
        onSignedIn={onSignedIn}
        onNavigate={onNavigate}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Checking your verification link…');
    await findToast('Signed in successfully!');
    expect(onSignedIn).toHaveBeenCalledWith(TOKEN, REFRESH);
    expect(onNavigate).toHaveBeenCalledWith('/onboarding');
  });

  it('under StrictMode the link is verified once, and the success path runs', async () => {
    // Like the real server: the token is single-use, and a request aborted mid-way may still use it.
    const used = new Set<string>();
    let verifyCalls = 0;
    const adapter = fakeAuthAdapter({
      verifyEmail: async ({ token }: VerifyEmailRequest, options) => {
        verifyCalls += 1;
        if (used.has(token)) throw apiError(400, 'Invalid or expired verification token');
        used.add(token);
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (options?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
        return authResponse({ onboarding_completed: false });
      },
    });
    const onSignedIn = vi.fn();
    const onNavigate = vi.fn();
    renderWithToasts(
      <StrictMode>
        <VerifyEmail
          adapter={adapter}
          token="link-strict"
          onSignedIn={onSignedIn}
          onNavigate={onNavigate}
        />
      </StrictMode>,
    );
    await findToast('Signed in successfully!');
    await waitFor(() => expect(onNavigate).toHaveBeenCalledWith('/onboarding'));
    expect(verifyCalls).toBe(1);
    expect(onSignedIn).toHaveBeenCalledTimes(1);
    expect(onSignedIn).toHaveBeenCalledWith(TOKEN, REFRESH);
    expect(onNavigate).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('<VerifyEmail> on a first run (issue 13)', () => {
  it('a link opened again for a verified account says so and offers sign-in', async () => {
    const onNavigate = vi.fn();
    const adapter = fakeAuthAdapter({
      verifyEmail: rejects(apiError(409, 'This email is already verified. Please sign in.')),
    });
    const { user } = renderWithToasts(
      <VerifyEmail adapter={adapter} token="used-token" onNavigate={onNavigate} />,
    );
    expect(await screen.findByRole('heading', { name: 'Email verified' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Your email is already verified. Please sign in.',
    );
    expect(screen.queryByText(/Invalid or expired/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onNavigate).toHaveBeenCalledWith('/login');
  });

  it('resend quotes the server when it states its cooldown', async () => {
    const adapter = fakeAuthAdapter({
      resendVerification: async () => ({
        message: 'An email was sent recently.',
        retry_after: 30,
      }),
    });
    const { user } = renderWithToasts(<VerifyEmail adapter={adapter} email="ada@example.org" />);
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(
      await screen.findByText(
        'An email was sent recently. You can ask for another email in 30 seconds.',
      ),
    ).toHaveAttribute('role', 'status');
    expect(screen.queryByText('Verification email resent successfully!')).not.toBeInTheDocument();
  });

  it('a link of another account than the one signed in verifies without signing in, and says so', async () => {
    const onSignedIn = vi.fn();
    const onNavigate = vi.fn();
    const adapter = fakeAuthAdapter();
    const { user } = renderWithToasts(
      <VerifyEmail
        adapter={adapter}
        token="link-2"
        currentUser={{ id: 'user-9', email: 'sam@example.com', display_name: 'Sam' }}
        onSignedIn={onSignedIn}
        onNavigate={onNavigate}
      />,
    );
    const page = await screen.findByRole('region', { name: 'Email verified' });
    expect(screen.getByRole('status')).toHaveTextContent(
      'ada@example.org is verified. You are still signed in as Sam.',
    );
    expect(page).toHaveTextContent('Signed in nowSamsam@example.com');
    expect(page).toHaveTextContent('From this linkAdaada@example.org');
    expect(screen.getByRole('button', { name: 'Stay signed in as Sam' })).toHaveFocus();
    expect(onSignedIn).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Switch to Ada' }));
    await findToast('Signed in successfully!');
    expect(onSignedIn).toHaveBeenCalledWith(TOKEN, REFRESH);
    expect(onNavigate).toHaveBeenCalledWith('/onboarding');
  });
});
