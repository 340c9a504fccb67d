import { createRef } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AuthProvider,
  MissingAuthProviderError,
  useAuth,
  type AuthHandle,
} from '../../../src/auth/AuthProvider';
import { memoryStorage } from '../../../src/auth/session.machine';
import { apiError, fakeAuthAdapter, newUser, rejects, user } from '../../fakes/auth';
import { clearToasts, findToast, renderWithToasts } from './render';

afterEach(clearToasts);

function Probe() {
  const auth = useAuth();
  return (
    <div>
      <p>status: {String(auth.state.value)}</p>
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
});
