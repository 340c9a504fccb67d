import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { authResponse } from '../../../fakes/auth';
import { OAuthCallback } from '../../../src/auth/oauth-callback/OAuthCallback';
import { beginRedirectSignIn } from '../../../src/lib/sign-in-state';
import { findToast } from '../../support/toasts';
import { clearToasts, renderWithToasts } from '../render';

afterEach(() => {
  clearToasts();
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
  sessionStorage.clear();
});

const adapter = (
  impl = async () => ({ ...authResponse(), access_token: 'tok-g', refresh_token: 'r-g' }),
) => ({
  exchangeSignInCode: vi.fn(impl),
});

describe('<OAuthCallback>', () => {
  it('takes the code out of the address bar at once, exchanges it with this browser’s value, signs in', async () => {
    const state = beginRedirectSignIn();
    window.history.replaceState(null, '', '/oauth-callback?code=one-time&keep=1#top');
    const onSignedIn = vi.fn();
    const onNavigate = vi.fn();
    const api = adapter();
    renderWithToasts(
      <OAuthCallback adapter={api} onSignedIn={onSignedIn} onNavigate={onNavigate} />,
    );

    expect(window.location.search).toBe('?keep=1');
    expect(window.location.hash).toBe('#top');
    await findToast('Successfully signed in with Google!');
    expect(api.exchangeSignInCode).toHaveBeenCalledWith({ code: 'one-time', state });
    expect(onSignedIn).toHaveBeenCalledWith('tok-g', 'r-g');
    expect(onNavigate).toHaveBeenCalledWith('/');
    // The one-time value is forgotten once read.
    expect(sessionStorage.length).toBe(0);
    expect(screen.getByRole('heading', { name: 'Signed in' })).toBeInTheDocument();
  });

  it('a link with an access token never signs this browser in', async () => {
    beginRedirectSignIn();
    window.history.replaceState(
      null,
      '',
      '/oauth-callback?access_token=attackers&token_type=bearer&refresh_token=theirs',
    );
    const onSignedIn = vi.fn();
    const api = adapter();
    renderWithToasts(<OAuthCallback adapter={api} onSignedIn={onSignedIn} />);
    expect(window.location.search).toBe('');
    await findToast('Authentication failed: No access token received', 'alert');
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(api.exchangeSignInCode).not.toHaveBeenCalled();
  });

  it('shows the progress while the code is exchanged', () => {
    renderWithToasts(
      <OAuthCallback
        adapter={adapter(() => new Promise(() => {}))}
        search="?code=c"
        signInState="s"
        clearAddressBar={() => {}}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Finishing your Google sign-in…');
  });

  it('an error: the message, then /auth after 3 s', async () => {
    vi.useFakeTimers();
    const onNavigate = vi.fn();
    const clearAddressBar = vi.fn();
    renderWithToasts(
      <OAuthCallback
        adapter={adapter()}
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

  it('no code: Authentication failed, with a link back', async () => {
    const onNavigate = vi.fn();
    const { user } = renderWithToasts(
      <OAuthCallback
        adapter={adapter()}
        search=""
        onNavigate={onNavigate}
        clearAddressBar={() => {}}
      />,
    );
    await findToast('Authentication failed: No access token received', 'alert');
    await user.click(screen.getByRole('link', { name: 'Back to sign in' }));
    expect(onNavigate).toHaveBeenCalledWith('/auth');
  });

  describe('opened while another account is signed in', () => {
    const SAM = { id: 'user-9', email: 'sam@example.com', display_name: 'Sam' };

    it('asks with both accounts; Enter on the focused answer stays, and nothing was signed in', async () => {
      const onSignedIn = vi.fn();
      const onNavigate = vi.fn();
      const logout = vi.fn(async () => ({ message: 'Signed out' }));
      renderWithToasts(
        <OAuthCallback
          adapter={{ ...adapter(), logout }}
          search="?code=c"
          signInState="s"
          currentUser={SAM}
          clearAddressBar={() => {}}
          onSignedIn={onSignedIn}
          onNavigate={onNavigate}
        />,
      );
      const question = await screen.findByRole('region', { name: 'You are already signed in' });
      expect(question).toHaveTextContent('Signed in nowSamsam@example.com');
      expect(question).toHaveTextContent('From this linkAdaada@example.org');
      const stay = screen.getByRole('button', { name: 'Stay signed in as Sam' });
      expect(stay).toHaveFocus();
      expect(screen.getByRole('button', { name: 'Switch to Ada' })).toBeInTheDocument();
      expect(onSignedIn).not.toHaveBeenCalled();

      await userEvent.keyboard('{Enter}');
      await vi.waitFor(() => expect(onNavigate).toHaveBeenCalledWith('/'));
      expect(logout).toHaveBeenCalledWith({ refresh_token: 'r-g' });
      expect(onSignedIn).not.toHaveBeenCalled();
    });

    it('switching signs in to the link’s account', async () => {
      const onSignedIn = vi.fn();
      renderWithToasts(
        <OAuthCallback
          adapter={adapter()}
          search="?code=c"
          signInState="s"
          currentUser={SAM}
          clearAddressBar={() => {}}
          onSignedIn={onSignedIn}
        />,
      );
      await userEvent.click(await screen.findByRole('button', { name: 'Switch to Ada' }));
      await findToast('Successfully signed in with Google!');
      expect(onSignedIn).toHaveBeenCalledWith('tok-g', 'r-g');
    });

    it('waits for a session still loading, then asks', async () => {
      const onSignedIn = vi.fn();
      const props = {
        adapter: adapter(),
        search: '?code=c',
        signInState: 's',
        clearAddressBar: () => {},
        onSignedIn,
      };
      const { rerender } = render(<OAuthCallback {...props} sessionPending />);
      // Exchanged, and waiting for the session: still working, nothing signed in.
      await screen.findByText('Welcome, Ada! Finishing your Google sign-in…');
      rerender(<OAuthCallback {...props} currentUser={SAM} sessionPending={false} />);
      await screen.findByRole('button', { name: 'Stay signed in as Sam' });
      expect(onSignedIn).not.toHaveBeenCalled();
    });
  });
});
