import { assign, emit, fromPromise, setup } from 'xstate';
import { AUTH } from '../lib/limits';
import { OAUTH_MESSAGES, oauthError } from '../lib/messages';
import type { AuthNotice } from './notices';
import { stubActor } from '../lib/stub-actor';

/** The query parameters Google sign-in returns with (spec section 2, "/oauth-callback"). */
export const OAUTH_PARAMS = [
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
  token: string | null;
  /** The session's refresh token, when the server sent one. */
  refreshToken: string | null;
  /** The name the provider gave, for the greeting while the user loads. */
  userName: string | null;
  /** Why the sign-in failed. */
  error: string | null;
};

/**
 * The return from Google (spec section 2, "OAuth callback"): `signingIn` with the token, then `done`
 * (a toast and '/'); or `failed`, which shows why and goes back to /auth after 3 s.
 */
export const oauthCallbackMachine = setup({
  types: {
    context: {} as OAuthCallbackContext,
    input: {} as OAuthParams,
    emitted: {} as AuthNotice,
  },
  actors: {
    signIn: stubActor<unknown, { token: string; refreshToken: string | null }>('signIn'),
  },
  delays: { redirect: AUTH.oauthErrorRedirectMs },
}).createMachine({
  id: 'oauthCallback',
  context: ({ input }) => {
    const token = input.access_token?.trim() || null;
    const error = input.error?.trim()
      ? oauthError(input.error.trim())
      : token
        ? null
        : OAUTH_MESSAGES.noAccessToken;
    const refreshToken = input.refresh_token?.trim() || null;
    return { token, refreshToken, userName: input.user_name?.trim() || null, error };
  },
  initial: 'start',
  states: {
    start: {
      always: [{ guard: ({ context }) => context.error !== null, target: 'failed' }, 'signingIn'],
    },
    signingIn: {
      tags: ['busy'],
      invoke: {
        src: 'signIn',
        input: ({ context }) => ({
          token: context.token ?? '',
          refreshToken: context.refreshToken,
        }),
        onDone: {
          target: 'done',
          actions: [
            emit({ type: 'toast.success', message: OAUTH_MESSAGES.googleSignedIn }),
            emit({ type: 'route.navigate', path: '/' }),
          ],
        },
        onError: {
          target: 'failed',
          actions: assign({ error: OAUTH_MESSAGES.googleIncomplete }),
        },
      },
    },
    failed: {
      entry: emit(({ context }) => ({ type: 'toast.error', message: context.error ?? '' })),
      after: { redirect: 'returned' },
    },
    returned: { type: 'final', entry: emit({ type: 'route.navigate', path: '/auth' }) },
    done: { type: 'final' },
  },
});

/** The callback's machine; `signIn` hands the token to the session and loads the user. */
export function oauthCallbackLogic(host: {
  signIn(token: string, refreshToken?: string | null): unknown;
}) {
  return oauthCallbackMachine.provide({
    actors: {
      signIn: fromPromise(async ({ input }) => host.signIn(input.token, input.refreshToken)),
    },
  });
}

/** Reads the callback's parameters from a query string or `URLSearchParams`. */
export function readOAuthParams(search: string | URLSearchParams): OAuthParams {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return Object.fromEntries(OAUTH_PARAMS.map((key) => [key, params.get(key)]));
}
