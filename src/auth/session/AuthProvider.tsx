import { useActorRef, useSelector } from '@xstate/react';
import { type ReactNode, type Ref, useImperativeHandle, useMemo } from 'react';
import { type SnapshotFrom, waitFor } from 'xstate';

import { AUTH } from '../../lib/limits';
import { SIGN_IN_MESSAGES } from '../../lib/messages';
import { toast } from '../../ui/toast';
import type { AuthAdapter, User } from '../auth.adapter';
import type { TokenStorage } from '../auth.types';
import { SessionActorProvider, type SessionActorRef, useSessionActor } from '../auth-context';
import { browserStorage, isNewUser, sessionLogic, type sessionMachine } from './session.machine';
import { isSessionLoading, isSignedIn } from './session.selectors';

export { MissingAuthProviderError } from '../auth-context';

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/**
 * What a host reaches from outside React, through `ref`: the HTTP layer's `onUnauthorized`,
 * `onTrialExpired` and `getToken` are wired to it (see `AuthProvider`).
 */
export type AuthHandle = {
  /** The current access token, or null when signed out. */
  getToken(): string | null;
  /** A call answered 401: clears the token and signs out. */
  unauthorized(): void;
  /** A call's error said TRIAL_EXPIRED: raises the trial flag. */
  trialExpired(): void;
};

export type AuthProviderProps = {
  /** The auth backend: `createHttpApi(...).auth`, or a fake. */
  adapter: AuthAdapter;
  /** Where the token is kept under `authToken`. @default localStorage (memory where unavailable) */
  storage?: TokenStorage;
  /** Receives the `AuthHandle`. */
  ref?: Ref<AuthHandle>;
  children?: ReactNode;
};

/**
 * The signed-in session for everything inside. On mount it loads the stored token and fetches the
 * user. Wire the HTTP layer to it through `ref`:
 * `createHttpApi({ getToken: () => auth.current?.getToken(), onUnauthorized: () => auth.current?.unauthorized(), onTrialExpired: () => auth.current?.trialExpired() })`.
 */
export function AuthProvider({ adapter, storage, ref, children }: AuthProviderProps) {
  const logic = useMemo(
    () => sessionLogic(adapter, storage ?? browserStorage()),
    [adapter, storage],
  );
  const actorRef = useActorRef(logic);

  useImperativeHandle(
    ref,
    () => ({
      getToken: () => actorRef.getSnapshot().context.token,
      unauthorized: () => actorRef.send({ type: 'auth.unauthorized' }),
      trialExpired: () => actorRef.send({ type: 'auth.trialExpired' }),
    }),
    [actorRef],
  );

  return <SessionActorProvider value={actorRef}>{children}</SessionActorProvider>;
}

export type AuthState = {
  /** The session machine's snapshot: `state.matches('loading')`, `state.hasTag('busy')`. */
  state: SessionSnapshot;
  /** The signed-in user, or null (a guest). */
  user: User | null;
  /** The user's id, or 'guest-user' when signed out. */
  userId: string;
  isGuest: boolean;
  /** The session still loads the stored token or the user: who is signed in is not known yet. */
  isLoading: boolean;
  /** `last_login` empty or equal to `created_at`. */
  isNewUser: boolean;
  trialExpired: boolean;
  /**
   * Stores `token` (and the sign-in's `refreshToken`, which keeps the session alive past the access
   * token's 30 minutes), fetches the user; resolves with the user, rejects when the fetch fails.
   */
  signIn(token: string, refreshToken?: string | null): Promise<User>;
  /** Clears tokens and user, signs the session out on the server, says 'Signed out successfully'. */
  signOut(): void;
  /** Adopts a fresher user from a call's answer. */
  updateUser(user: User): void;
  dismissTrialExpired(): void;
};

/** The session of the enclosing `<AuthProvider>`. */
export function useAuth(): AuthState {
  const actorRef = useSessionActor('useAuth');
  const state = useSelector(actorRef, (snapshot) => snapshot);

  return useMemo(() => {
    const { user, trialExpired } = state.context;
    return {
      state,
      user,
      userId: user?.id ?? AUTH.guestUserId,
      isGuest: !isSignedIn(state),
      isLoading: isSessionLoading(state),
      isNewUser: user ? isNewUser(user) : false,
      trialExpired,
      signIn: (token, refreshToken) => signIn(actorRef, token, refreshToken),
      signOut: () => {
        if (!actorRef.getSnapshot().can({ type: 'auth.signOut' })) return;
        actorRef.send({ type: 'auth.signOut' });
        toast.success(SIGN_IN_MESSAGES.signedOut);
      },
      updateUser: (next) => actorRef.send({ type: 'user.update', user: next }),
      dismissTrialExpired: () => actorRef.send({ type: 'trial.dismiss' }),
    };
  }, [actorRef, state]);
}

async function signIn(
  actorRef: SessionActorRef,
  token: string,
  refreshToken?: string | null,
): Promise<User> {
  actorRef.send({ type: 'auth.login', token, refreshToken });
  const settled = await waitFor(actorRef, (snapshot) => !isSessionLoading(snapshot));
  const { user, error } = settled.context;
  if (isSignedIn(settled) && user) return user;
  throw error instanceof Error ? error : new Error('Could not load the signed-in user');
}
