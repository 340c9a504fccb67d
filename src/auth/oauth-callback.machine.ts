import { assign, emit, fromPromise, setup } from 'xstate';
import { AUTH } from '../lib/limits';
import { OAUTH_MESSAGES, oauthError } from '../lib/messages';
import type { AuthResponse } from './auth.adapter';
import type { AuthNotice } from './notices';
import { stubActor } from '../lib/stub-actor';

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
};

/**
 * The return from Google (spec section 2, "OAuth callback"): `signingIn` with the token, then `done`
 * (a toast and '/'); or `failed`, which shows why and goes back to /auth after 3 s.
 */
export const oauthCallbackMachine = setup({
  types: {
    context: {} as OAuthCallbackContext,
    input: {} as OAuthParams & { state?: string | null },
    emitted: {} as AuthNotice,
  },
  actors: {
    signIn: stubActor<unknown, { code: string; state: string }>('signIn'),
  },
  delays: { redirect: AUTH.oauthErrorRedirectMs },
}).createMachine({
  id: 'oauthCallback',
  context: ({ input }) => {
    const code = input.code?.trim() || null;
    const state = input.state ?? null;
    // A code without this browser's one-time value comes from someone else's sign-in: refused.
    const error = input.error?.trim()
      ? oauthError(input.error.trim())
      : code && state
        ? null
        : code
          ? OAUTH_MESSAGES.googleIncomplete
          : OAUTH_MESSAGES.noAccessToken;
    return { code, state, userName: null, error };
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
        input: ({ context }) => ({ code: context.code ?? '', state: context.state ?? '' }),
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

/**
 * The callback's machine: `exchange` trades the code and the browser's one-time value for a session
 * (the adapter's `exchangeSignInCode`), `signIn` hands its tokens to the session.
 */
export function oauthCallbackLogic(host: {
  exchange(body: { code: string; state: string }): Promise<AuthResponse>;
  signIn(token: string, refreshToken?: string | null): unknown;
}) {
  return oauthCallbackMachine.provide({
    actors: {
      signIn: fromPromise(async ({ input }) => {
        const answer = await host.exchange(input);
        return host.signIn(answer.access_token, answer.refresh_token ?? null);
      }),
    },
  });
}

/** Reads the callback's parameters from a query string or `URLSearchParams`. */
export function readOAuthParams(search: string | URLSearchParams): OAuthParams {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return Object.fromEntries(OAUTH_PARAMS.map((key) => [key, params.get(key)]));
}
