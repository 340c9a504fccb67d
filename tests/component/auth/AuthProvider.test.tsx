import { act, render, screen, waitFor } from '@testing-library/react';
import { createRef, StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { apiError, fakeAuthAdapter, newUser, rejects, user } from '../../../fakes/auth';
import {
  type AuthHandle,
  AuthProvider,
  MissingAuthProviderError,
  useAuth,
} from '../../../src/auth/session/AuthProvider';
import { memoryStorage } from '../../../src/auth/session/session.machine';
import { findToast } from '../../support/toasts';
import { fakeJwt } from '../../unit/auth/support';
import { clearToasts, renderWithToasts } from '../render';

afterEach(clearToasts);

/** The session's top state: 'signedIn' for `{ signedIn: 'fresh' }`. */
const topState = (value: string | object) =>
  typeof value === 'string' ? value : (Object.keys(value)[0] ?? '');

function Probe() {
  const auth = useAuth();
  return (
    <div>
      <p>status: {topState(auth.state.value)}</p>
      <p>user: {auth.userId}</p>
      <p>guest: {String(auth.isGuest)}</p>
      <p>new: {String(auth.isNewUser)}</p>
      <p>trial: {String(auth.trialExpired)}</p>
      <button type="button" onClick={() => void auth.signIn('tok-new').catch(() => {})}>
        sign in
      </button>
      <button type="button" onClick={auth.signOut}>
        sign out
      </button>
      <button type="button" onClick={auth.dismissTrialExpired}>
        dismiss
      </button>
    </div>
  );
}

describe('<AuthProvider> and useAuth', () => {
  it('useAuth outside the provider throws a named error', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Probe />)).toThrow(MissingAuthProviderError);
    expect(() => render(<Probe />)).toThrow('`useAuth` must be used within `<AuthProvider>`');
    vi.restoreAllMocks();
  });

  it('is a guest until signed in; signIn loads the user; signOut says so', async () => {
    const storage = memoryStorage();
    const { user: actor } = renderWithToasts(
      <AuthProvider
        adapter={fakeAuthAdapter({ me: async () => ({ user: newUser }) })}
        storage={storage}
      >
        <Probe />
      </AuthProvider>,
    );
    expect(screen.getByText('status: signedOut')).toBeInTheDocument();
    expect(screen.getByText('user: guest-user')).toBeInTheDocument();
    expect(screen.getByText('guest: true')).toBeInTheDocument();

    await actor.click(screen.getByRole('button', { name: 'sign in' }));
    await screen.findByText('status: signedIn');
    expect(screen.getByText(`user: ${newUser.id}`)).toBeInTheDocument();
    expect(screen.getByText('new: true')).toBeInTheDocument();
    expect(storage.getItem('authToken')).toBe('tok-new');

    await actor.click(screen.getByRole('button', { name: 'sign out' }));
    await findToast('Signed out successfully');
    expect(screen.getByText('status: signedOut')).toBeInTheDocument();
    expect(storage.getItem('authToken')).toBeNull();
  });

  it('signIn rejects when the user cannot be loaded', async () => {
    let outcome: unknown;
    function Caller() {
      const auth = useAuth();
      return (
        <button
          type="button"
          onClick={() => auth.signIn('bad').catch((error) => (outcome = error))}
        >
          go
        </button>
      );
    }
    const { user: actor } = renderWithToasts(
      <AuthProvider
        adapter={fakeAuthAdapter({ me: rejects(apiError(401)) })}
        storage={memoryStorage()}
      >
        <Caller />
      </AuthProvider>,
    );
    await actor.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(outcome).toBeInstanceOf(Error));
  });

  it('restores the stored session, and its handle serves the HTTP layer', async () => {
    const ref = createRef<AuthHandle>();
    const storage = memoryStorage({ authToken: 'tok-1' });
    render(
      <AuthProvider adapter={fakeAuthAdapter()} storage={storage} ref={ref}>
        <Probe />
      </AuthProvider>,
    );
    await screen.findByText('status: signedIn');
    expect(screen.getByText(`user: ${user.id}`)).toBeInTheDocument();
    expect(ref.current?.getToken()).toBe('tok-1');

    act(() => ref.current?.trialExpired());
    expect(screen.getByText('trial: true')).toBeInTheDocument();

    act(() => ref.current?.unauthorized());
    expect(screen.getByText('status: signedOut')).toBeInTheDocument();
    expect(ref.current?.getToken()).toBeNull();
    expect(storage.getItem('authToken')).toBeNull();
  });

  it('refreshes a stored token about to expire, and stores the new one', async () => {
    const now = Math.floor(Date.now() / 1000);
    const stale = fakeJwt({ iat: now - 1770, exp: now + 30 });
    const fresh = fakeJwt({ iat: now, exp: now + 1800 });
    const ref = createRef<AuthHandle>();
    const storage = memoryStorage({ authToken: stale, authRefreshToken: 'r-1' });
    const adapter = fakeAuthAdapter({
      refresh: async () => ({
        access_token: fresh,
        token_type: 'bearer',
        expires_in: 1800,
        refresh_token: 'r-2',
      }),
    });
    render(
      <AuthProvider adapter={adapter} storage={storage} ref={ref}>
        <Probe />
      </AuthProvider>,
    );
    await waitFor(() => expect(storage.getItem('authToken')).toBe(fresh));
    expect(ref.current?.getToken()).toBe(fresh);
    expect(screen.getByText('status: signedIn')).toBeInTheDocument();
    expect(storage.getItem('authRefreshToken')).toBe('r-2');
    // Due at once: renewed with the refresh token before the user is fetched.
    expect(adapter.calls.map((call) => call.method)).toEqual(['refresh', 'me']);
  });

  it('keeps a signed-in student signed in past the token’s 30 minutes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const now = Math.floor(Date.now() / 1000);
      const tokens = [1, 2].map((n) => fakeJwt({ iat: now + n, exp: now + n + 1800 }));
      const storage = memoryStorage({
        authToken: fakeJwt({ iat: now, exp: now + 1800 }),
        authRefreshToken: 'r-0',
      });
      let n = 0;
      const adapter = fakeAuthAdapter({
        refresh: async () => ({
          access_token: tokens.shift() ?? '',
          token_type: 'bearer',
          refresh_token: `r-${++n}`,
        }),
      });
      render(
        <AuthProvider adapter={adapter} storage={storage}>
          <Probe />
        </AuthProvider>,
      );
      await screen.findByText('status: signedIn');
      const first = storage.getItem('authToken');

      await act(() => vi.advanceTimersByTimeAsync(24 * 60_000));
      const second = storage.getItem('authToken');
      expect(second).not.toBe(first);
      await act(() => vi.advanceTimersByTimeAsync(24 * 60_000));
      expect(storage.getItem('authToken')).not.toBe(second);
      expect(screen.getByText('status: signedIn')).toBeInTheDocument();
      expect(
        adapter.calls.filter((call) => call.method === 'refresh').map((call) => call.body),
      ).toEqual([{ refresh_token: 'r-0' }, { refresh_token: 'r-1' }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('under StrictMode the aborted first load of the user does not sign the student out', async () => {
    const storage = memoryStorage({ authToken: 'tok-1' });
    // Like the HTTP adapter: an aborted call rejects with an AbortError.
    const adapter = fakeAuthAdapter({
      me: (options) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve({ user }), 10);
          options?.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
    });
    render(
      <StrictMode>
        <AuthProvider adapter={adapter} storage={storage}>
          <Probe />
        </AuthProvider>
      </StrictMode>,
    );
    await screen.findByText('status: signedIn');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(screen.getByText('status: signedIn')).toBeInTheDocument();
    expect(screen.getByText(`user: ${user.id}`)).toBeInTheDocument();
    expect(storage.getItem('authToken')).toBe('tok-1');
  });
});
