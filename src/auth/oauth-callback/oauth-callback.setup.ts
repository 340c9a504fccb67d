import { setup } from 'xstate';

import { AUTH } from '../../lib/limits';
import { stubActor } from '../../lib/stub-actor';
import {
  type Account,
  type AccountSwitchEvent,
  isOtherAccount,
  type SessionUpdateEvent,
} from '../account-switch';
import type { AuthResponse } from '../auth.adapter';
import type { AuthNotice } from '../auth.notices';
import { signInStub } from '../hand-off';

/**
 * The query parameters of `/oauth-callback`: the server sends a one-time `code` (or `error`); the
 * spec's token parameters are still taken out of the address bar, but never used: a token in a link
 * would sign whoever opens it into someone else's account.
 */
export const OAUTH_PARAMS = [
  'code',
  'access_token',
  'token_type',
  'user_id',
  'user_name',
  'user_email',
  'user_avatar',
  'refresh_token',
  'error',
] as const;

export type OAuthParams = Partial<Record<(typeof OAUTH_PARAMS)[number], string | null>>;

export type OAuthCallbackContext = {
  /** The one-time code of the redirect. */
  code: string | null;
  /** The one-time value this browser kept when it started the sign-in (lib/sign-in-state.ts). */
  state: string | null;
  /** The name the provider gave, for the greeting while the user loads. */
  userName: string | null;
  /** Why the sign-in failed. */
  error: string | null;
  /** Who is signed in on this browser now (null: nobody). */
  current: Account | null;
  /** The session is still loading who is signed in: the page waits before deciding. */
  sessionPending: boolean;
  /** The exchanged sign-in, held until it is used (or dropped when the student stays). */
  incoming: AuthResponse | null;
};

export type OAuthCallbackInput = OAuthParams & {
  state?: string | null;
  /** Who is signed in now. @default nobody */
  current?: Account | null | undefined;
  /** True while the session still loads its user. @default false */
  sessionPending?: boolean | undefined;
};

export type OAuthCallbackEvent = SessionUpdateEvent | AccountSwitchEvent;

/** Types, actors (stubs until they are provided), guards and actions of `oauthCallbackMachine`. */
export const oauthCallbackSetup = setup({
  types: {
    context: {} as OAuthCallbackContext,
    input: {} as OAuthCallbackInput,
    events: {} as OAuthCallbackEvent,
    emitted: {} as AuthNotice,
  },
  actors: {
    exchange: stubActor<AuthResponse, { code: string; state: string }>('exchange'),
    signIn: signInStub,
    discard: stubActor<unknown, { refreshToken: string | null }>('discard'),
  },
  guards: {
    otherAccount: ({ context }) =>
      !context.sessionPending && isOtherAccount(context.current, context.incoming?.user),
    sessionKnown: ({ context }) => !context.sessionPending,
  },
  delays: { redirect: AUTH.oauthErrorRedirectMs },
});
