import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OAuthCallback } from '../../../src/auth/OAuthCallback';
import { clearToasts, renderWithToasts } from '../render';
import { findToast } from '../../support/toasts';

afterEach(() => {
  clearToasts();
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

describe('<OAuthCallback>', () => {
  it('takes the token out of the address bar at once, signs in and goes to /', async () => {
    window.history.replaceState(
      null,
      '',
      '/oauth-callback?access_token=tok-g&token_type=bearer&user_name=Ada&refresh_token=r-g&keep=1#top',
    );
    const onSignedIn = vi.fn();
    const onNavigate = vi.fn();
    renderWithToasts(<OAuthCallback onSignedIn={onSignedIn} onNavigate={onNavigate} />);

    expect(window.location.search).toBe('?keep=1');
    expect(window.location.hash).toBe('#top');
    await findToast('Successfully signed in with Google!');
    expect(onSignedIn).toHaveBeenCalledWith('tok-g', 'r-g');
    expect(onNavigate).toHaveBeenCalledWith('/');
    expect(screen.getByRole('heading', { name: 'Signed in' })).toBeInTheDocument();
  });

  it('shows the progress while the session loads the user', () => {
    renderWithToasts(
      <OAuthCallback
        search="?access_token=t&user_name=Ada"
        onSignedIn={() => new Promise(() => {})}
        clearAddressBar={() => {}}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      'Welcome, Ada! Finishing your Google sign-in…',
    );
  });

  it('an error: the message, then /auth after 3 s', async () => {
    vi.useFakeTimers();
    const onNavigate = vi.fn();
    const clearAddressBar = vi.fn();
    renderWithToasts(
      <OAuthCallback
        search={new URLSearchParams({ error: 'access_denied' })}
        onNavigate={onNavigate}
        clearAddressBar={clearAddressBar}
      />,
    );
    expect(clearAddressBar).toHaveBeenCalledTimes(1);
    expect(
      screen.getByText('OAuth error: access_denied', { selector: '[role="alert"]' }),
    ).toBeInTheDocument();
    expect(screen.getByText('OAuth error: access_denied', { selector: 'p' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(2999));
    expect(onNavigate).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onNavigate).toHaveBeenCalledWith('/auth');
  });

  it('no token: Authentication failed, with a link back', async () => {
    const onNavigate = vi.fn();
    const { user } = renderWithToasts(
      <OAuthCallback search="" onNavigate={onNavigate} clearAddressBar={() => {}} />,
    );
    await findToast('Authentication failed: No access token received', 'alert');
    await user.click(screen.getByRole('link', { name: 'Back to sign in' }));
    expect(onNavigate).toHaveBeenCalledWith('/auth');
  });
});
