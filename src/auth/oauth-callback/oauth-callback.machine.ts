import { assign, emit, fromPromise } from 'xstate';

import { OAUTH_MESSAGES, oauthError } from '../../lib/messages';
import type { AuthResponse } from '../auth.adapter';
import type { OAuthParams } from '../auth.types';
import { handOff, type SignInHost } from '../hand-off';
import { OAUTH_PARAMS } from './oauth-callback.params';
import { oauthCallbackSetup } from './oauth-callback.setup';

/**
 * The return from Google (spec section 2, "OAuth callback"): `exchanging` the one-time code, then
 * `signingIn` with its tokens, then `done` (a toast and '/'); or `failed`, which shows why and goes
 * back to /auth after 3 s. A link never replaces a session silently (issue 22 #1): when another
 * account is signed in, `confirmingSwitch` shows both and waits; staying drops the new sign-in
 * (`discard`, then '/'), switching signs in. While the session still loads, `deciding` waits for it.
 */
export const oauthCallbackMachine = oauthCallbackSetup.createMachine({
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
    return {
      code,
      state,
      userName: null,
      error,
      current: input.current ?? null,
      sessionPending: input.sessionPending ?? false,
      incoming: null,
    };
  },
  initial: 'start',
  on: {
    'session.update': {
      actions: assign(({ event }) => ({
        current: event.current,
        sessionPending: event.pending,
      })),
    },
  },
  states: {
    start: {
      always: [{ guard: ({ context }) => context.error !== null, target: 'failed' }, 'exchanging'],
    },
    exchanging: {
      tags: ['busy'],
      invoke: {
        src: 'exchange',
        input: ({ context }) => ({ code: context.code ?? '', state: context.state ?? '' }),
        onDone: {
          target: 'deciding',
          actions: assign({
            incoming: ({ event }) => event.output,
            userName: ({ event }) => event.output.user?.display_name || null,
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: OAUTH_MESSAGES.googleIncomplete }),
        },
      },
    },
    deciding: {
      tags: ['busy'],
      always: [
        { guard: 'otherAccount', target: 'confirmingSwitch' },
        { guard: 'sessionKnown', target: 'signingIn' },
      ],
    },
    confirmingSwitch: {
      on: {
        'switch.keep': 'keeping',
        'switch.confirm': 'signingIn',
      },
    },
    keeping: {
      tags: ['busy'],
      // The unused sign-in is signed out on the server; the current session is not touched.
      invoke: {
        src: 'discard',
        input: ({ context }) => ({ refreshToken: context.incoming?.refresh_token ?? null }),
        onDone: 'kept',
        onError: 'kept',
      },
    },
    kept: { type: 'final', entry: emit({ type: 'route.navigate', path: '/' }) },
    signingIn: {
      tags: ['busy'],
      invoke: {
        src: 'signIn',
        input: ({ context }) => ({
          token: context.incoming?.access_token ?? '',
          refreshToken: context.incoming?.refresh_token ?? null,
        }),
        onDone: {
          target: 'done',
          actions: [
            emit({ type: 'notify', tone: 'success', message: OAUTH_MESSAGES.googleSignedIn }),
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
      entry: emit(({ context }) => ({
        type: 'notify',
        tone: 'error',
        message: context.error ?? '',
      })),
      after: { redirect: 'returned' },
    },
    returned: { type: 'final', entry: emit({ type: 'route.navigate', path: '/auth' }) },
    done: { type: 'final' },
  },
});

/**
 * The callback's machine: `exchange` trades the code and the browser's one-time value for a session
 * (the adapter's `exchangeSignInCode`), `signIn` hands its tokens to the session, `discard` signs an
 * unused sign-in out (the adapter's `logout` with its refresh token).
 */
export function oauthCallbackLogic(
  host: SignInHost & {
    exchange(body: { code: string; state: string }): Promise<AuthResponse>;
    discard?(refreshToken: string): unknown;
  },
) {
  return oauthCallbackMachine.provide({
    actors: {
      exchange: fromPromise(({ input }) => host.exchange(input)),
      signIn: handOff(host),
      discard: fromPromise(async ({ input }) =>
        input.refreshToken ? host.discard?.(input.refreshToken) : undefined,
      ),
    },
  });
}

/** Reads the callback's parameters from a query string or `URLSearchParams`. */
export function readOAuthParams(search: string | URLSearchParams): OAuthParams {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return Object.fromEntries(OAUTH_PARAMS.map((key) => [key, params.get(key)]));
}
