import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';

import { takeRedirectSignInState } from '../../lib/sign-in-state';
import type { Theme } from '../../ui/root';
import { LoadingStatus } from '../../ui/skeleton';
import { Spinner } from '../../ui/spinner';
import type { Account } from '../account-switch';
import { AccountSwitch } from '../AccountSwitch';
import type { AuthAdapter } from '../auth.adapter';
import { AuthLayout, headingClass, NavLink } from '../AuthLayout';
import { useAuthNotices } from '../use-auth-notices';
import { oauthCallbackLogic, readOAuthParams } from './oauth-callback.machine';
import { OAUTH_PARAMS } from './oauth-callback.params';
import {
  hasFailed,
  isKeeping,
  isSignedIn,
  isWorking,
  switchChoice,
} from './oauth-callback.selectors';

export type OAuthCallbackProps = {
  /**
   * Exchanges the callback's one-time code (`exchangeSignInCode`); `logout`, when given, signs out a
   * sign-in the student chose not to use.
   */
  adapter: Pick<AuthAdapter, 'exchangeSignInCode'> & Partial<Pick<AuthAdapter, 'logout'>>;
  /**
   * Who is signed in on this browser now (`useAuth().user`): a link for another account then asks
   * before it replaces that session. @default nobody
   */
  currentUser?: Account | null | undefined;
  /** The session is still loading its user: the page waits for it before deciding. @default false */
  sessionPending?: boolean | undefined;
  /** The callback's query string or parameters. @default location.search */
  search?: string | URLSearchParams | undefined;
  /**
   * The one-time value this browser kept when it started the sign-in.
   * @default read (and forgotten) from sessionStorage
   */
  signInState?: string | null | undefined;
  /**
   * Hands the exchanged access token to the session (`useAuth().signIn`); a returned promise is
   * awaited, and its rejection means 'Failed to complete Google sign-in'.
   * @default nothing: the token is dropped
   */
  onSignedIn?: ((token: string, refreshToken?: string | null) => unknown) | undefined;
  /** The host's router: '/' after success, '/auth' 3 s after a failure. */
  onNavigate?: ((path: string) => void) | undefined;
  /**
   * Takes the token out of the address bar as soon as it has been read.
   * @default removes the callback's parameters with `history.replaceState`
   */
  clearAddressBar?: (() => void) | undefined;
  theme?: Theme | undefined;
  className?: string | undefined;
};

/** The return from Google sign-in (spec section 2, "OAuth callback"). */
export function OAuthCallback({
  adapter,
  search,
  signInState,
  currentUser = null,
  sessionPending = false,
  onSignedIn,
  onNavigate,
  clearAddressBar = removeOAuthParams,
  theme,
  className,
}: OAuthCallbackProps) {
  const [params] = useState(() => ({
    ...readOAuthParams(search ?? globalThis.location?.search ?? ''),
    state: signInState === undefined ? takeRedirectSignInState() : signInState,
  }));
  const clear = useRef(clearAddressBar);
  // Before the first paint: the token must not linger in the address bar or the history.
  useLayoutEffect(() => clear.current(), []);

  const actorRef = useActorRef(
    oauthCallbackLogic({
      exchange: (body) => adapter.exchangeSignInCode(body),
      signIn: (token, refresh) => onSignedIn?.(token, refresh),
      discard: (refresh) => adapter.logout?.({ refresh_token: refresh }),
    }),
    {
      input: { ...params, current: currentUser, sessionPending },
    },
  );
  useAuthNotices(actorRef, { onNavigate });
  useEffect(() => {
    actorRef.send({ type: 'session.update', current: currentUser, pending: sessionPending });
  }, [actorRef, currentUser, sessionPending]);
  const state = useSelector(actorRef, (snapshot) => snapshot);
  const choice = switchChoice(state);

  return (
    <AuthLayout theme={theme} className={className}>
      {choice && (
        <AccountSwitch
          current={choice.current}
          incoming={choice.incoming}
          busy={isKeeping(state)}
          onKeep={() => actorRef.send({ type: 'switch.keep' })}
          onSwitch={() => actorRef.send({ type: 'switch.confirm' })}
        />
      )}
      {isWorking(state) && (
        <>
          <h1 className={headingClass}>Signing you in</h1>
          <LoadingStatus
            showLabel
            label={
              state.context.userName
                ? `Welcome, ${state.context.userName}! Finishing your Google sign-in…`
                : 'Finishing your Google sign-in…'
            }
          >
            <Spinner className="ay:size-6 ay:text-primary" />
          </LoadingStatus>
        </>
      )}
      {isSignedIn(state) && (
        <>
          <h1 className={headingClass}>Signed in</h1>
          <p className="ay:text-sm ay:text-muted-foreground">Taking you to Ayah…</p>
        </>
      )}
      {hasFailed(state) && (
        <>
          <h1 className={headingClass}>Google sign-in did not work</h1>
          <p className="ay:text-sm ay:font-medium ay:text-destructive">{state.context.error}</p>
          <p className="ay:text-sm ay:text-muted-foreground">
            Taking you back to the sign-in page…{' '}
            <NavLink to="/auth" onNavigate={onNavigate}>
              Back to sign in
            </NavLink>
          </p>
        </>
      )}
    </AuthLayout>
  );
}

/** Removes the callback's parameters (the token among them) from the address bar. */
export function removeOAuthParams(): void {
  if (typeof window === 'undefined') return;
  const url = new URL(window.location.href);
  const present = OAUTH_PARAMS.filter((key) => url.searchParams.has(key));
  if (present.length === 0) return;
  for (const key of present) url.searchParams.delete(key);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
