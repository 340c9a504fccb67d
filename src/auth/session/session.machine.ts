import { assign, fromPromise } from 'xstate';

import { AUTH } from '../../lib/limits';
import type { AuthAdapter, User } from '../auth.adapter';
import { unlessAborted } from '../auth.notices';
import type { TokenStorage } from '../auth.types';
import { forgetRenewals, type RenewalLocks, renewShared } from './session.renewal';
import { sessionSetup } from './session.setup';
import { REFRESH_TOKEN_KEY, refreshAt } from './session.tokens';

/**
 * The signed-in session (spec section 4, "Auth"): `start` loads the stored token, `loading` fetches
 * the user, then `signedIn` or `signedOut`. Signed out, the user is the guest `guest-user`.
 * Signed in, the access token is swapped for a fresh one before it ends (`session.tokens.ts`):
 * `fresh` waits, `refreshing` asks the server, `retrying` waits after a call that got no answer;
 * a token whose lifetime cannot be read, or a session without a refresh token, stays `untimed`.
 * A refused refresh (401) signs out. A stored token that is already due (a tab that slept past its
 * 30 minutes) is renewed with the refresh token before the user is fetched (`loading.renewing`).
 * Signing out forgets the tokens at once and tells the server (`signingOut`, bounded), which revokes
 * the session and its refresh chain.
 */
export const sessionMachine = sessionSetup.createMachine({
  id: 'session',
  context: {
    token: null,
    refreshToken: null,
    refreshAt: null,
    user: null,
    trialExpired: false,
    error: null,
  },
  initial: 'start',
  states: {
    start: {
      entry: ['loadToken', 'planStoredToken'],
      always: [{ guard: 'hasToken', target: 'loading' }, { target: 'signedOut' }],
    },
    loading: {
      tags: ['busy'],
      initial: 'checking',
      states: {
        checking: {
          always: [{ guard: 'renewFirst', target: 'renewing' }, { target: 'fetching' }],
        },
        renewing: {
          invoke: {
            src: 'refresh',
            input: ({ context }) => ({ refreshToken: context.refreshToken ?? '' }),
            onDone: {
              target: 'fetching',
              actions: [
                { type: 'adoptRefreshed', params: ({ event }) => ({ answer: event.output }) },
                {
                  type: 'storeToken',
                  params: ({ context }) => ({
                    token: context.token ?? '',
                    refreshToken: context.refreshToken,
                  }),
                },
              ],
            },
            onError: {
              target: '#session.signedOut',
              actions: ['clearToken', 'forget', assign({ error: ({ event }) => event.error })],
            },
          },
        },
        fetching: {
          invoke: {
            src: 'me',
            onDone: {
              target: '#session.signedIn',
              actions: assign({ user: ({ event }) => event.output.user, error: null }),
            },
            onError: {
              target: '#session.signedOut',
              actions: ['clearToken', 'forget', assign({ error: ({ event }) => event.error })],
            },
          },
        },
      },
    },
    signedIn: {
      on: {
        'auth.signOut': { target: 'signingOut', actions: 'clearToken' },
        // A call refused the access token (it ended while the tab slept, or the session was
        // revoked): the refresh token decides, and a refused refresh signs out.
        'auth.unauthorized': [
          { guard: 'canRenew', target: '.refreshing' },
          { target: 'signedOut', actions: ['clearToken', 'forget'] },
        ],
        'user.update': { actions: assign({ user: ({ event }) => event.user }) },
      },
      initial: 'fresh',
      states: {
        fresh: {
          always: { guard: 'untimed', target: 'untimed' },
          after: { refreshDue: 'refreshing' },
        },
        untimed: {},
        refreshing: {
          // A 401 elsewhere meanwhile: this refresh's answer says whether the session lives.
          on: { 'auth.unauthorized': { actions: [] } },
          invoke: {
            src: 'refresh',
            input: ({ context }) => ({ refreshToken: context.refreshToken ?? '' }),
            onDone: {
              target: 'fresh',
              actions: [
                { type: 'adoptRefreshed', params: ({ event }) => ({ answer: event.output }) },
                {
                  type: 'storeToken',
                  params: ({ context }) => ({
                    token: context.token ?? '',
                    refreshToken: context.refreshToken,
                  }),
                },
              ],
            },
            onError: [
              {
                guard: { type: 'refused', params: ({ event }) => ({ error: event.error }) },
                target: '#session.signedOut',
                actions: ['clearToken', 'forget'],
              },
              // No answer (offline, a server error): the token may still be good, so try again.
              { target: 'retrying' },
            ],
          },
        },
        retrying: { after: { refreshRetry: 'refreshing' } },
      },
    },
    // Forgotten in storage already; the tokens stay in context only for the logout call.
    signingOut: {
      invoke: {
        src: 'logout',
        input: ({ context }) => ({ refreshToken: context.refreshToken }),
        onDone: { target: 'signedOut', actions: 'forget' },
        onError: { target: 'signedOut', actions: 'forget' },
      },
      after: { logoutBound: { target: 'signedOut', actions: 'forget' } },
    },
    signedOut: {},
  },
  on: {
    'auth.login': {
      target: '.loading',
      reenter: true,
      actions: [
        assign({
          token: ({ event }) => event.token,
          refreshToken: ({ event }) => event.refreshToken ?? null,
          refreshAt: ({ event }) => refreshAt(event.token, Date.now(), { fresh: true }),
          error: null,
        }),
        {
          type: 'storeToken',
          params: ({ event }) => ({ token: event.token, refreshToken: event.refreshToken ?? null }),
        },
      ],
    },
    'auth.unauthorized': { target: '.signedOut', actions: ['clearToken', 'forget'] },
    'auth.trialExpired': { actions: assign({ trialExpired: true }) },
    'trial.dismiss': { actions: assign({ trialExpired: false }) },
  },
});

/**
 * The session machine over `adapter`, keeping the access token in `storage` under `authToken` and
 * the refresh token beside it under `authRefreshToken`. A renewal is shared with the other tabs
 * that use the same storage (`session.renewal.ts`): `locks` is `navigator.locks` by default.
 */
export function sessionLogic(
  adapter: AuthAdapter,
  storage: TokenStorage,
  options: { locks?: RenewalLocks | null } = {},
) {
  const key = AUTH.tokenStorageKey;
  const stored = {
    read: () => ({
      token: readToken(storage, key),
      refreshToken: readToken(storage, REFRESH_TOKEN_KEY),
    }),
    write: (token: string, refreshToken: string | null) => {
      writeToken(storage, key, token);
      writeToken(storage, REFRESH_TOKEN_KEY, refreshToken);
    },
  };
  return sessionMachine.provide({
    actors: {
      me: fromPromise(({ signal }) => unlessAborted(adapter.me({ signal }), signal)),
      refresh: fromPromise(({ input, signal }) =>
        unlessAborted(
          renewShared({
            presented: input.refreshToken,
            stored,
            refresh: (refreshToken, signal) =>
              adapter.refresh({ refresh_token: refreshToken }, { signal }),
            signal,
            ...(options.locks !== undefined && { locks: options.locks }),
          }),
          signal,
        ),
      ),
      logout: fromPromise(({ input, signal }) =>
        adapter.logout(input.refreshToken ? { refresh_token: input.refreshToken } : {}, { signal }),
      ),
    },
    actions: {
      loadToken: assign({
        token: () => readToken(storage, key),
        refreshToken: () => readToken(storage, REFRESH_TOKEN_KEY),
      }),
      storeToken: (_, { token, refreshToken }) => {
        writeToken(storage, key, token);
        writeToken(storage, REFRESH_TOKEN_KEY, refreshToken);
      },
      clearToken: () => {
        writeToken(storage, key, null);
        writeToken(storage, REFRESH_TOKEN_KEY, null);
        void forgetRenewals();
      },
    },
  });
}

/** A new user: `last_login` empty, or the same instant as `created_at`. */
export function isNewUser(user: Pick<User, 'last_login' | 'created_at'>): boolean {
  if (!user.last_login) return true;
  if (user.last_login === user.created_at) return true;
  const last = Date.parse(user.last_login);
  return !Number.isNaN(last) && last === Date.parse(user.created_at);
}

/** `localStorage` where a page may use it, else a store that lasts as long as the page. */
export function browserStorage(): TokenStorage {
  try {
    // Reading the property throws in sandboxed frames and some private modes.
    const storage = globalThis.localStorage;
    if (storage) return storage;
  } catch {
    // fall through
  }
  return memoryStorage();
}

/** A `TokenStorage` in memory (tests, stories, pages without local storage). */
export function memoryStorage(initial: Record<string, string> = {}): TokenStorage {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

function readToken(storage: TokenStorage, key: string): string | null {
  try {
    return storage.getItem(key) || null;
  } catch {
    return null;
  }
}

// A full or forbidden storage must not stop a sign-in: the session keeps the token in memory.
function writeToken(storage: TokenStorage, key: string, token: string | null): void {
  try {
    if (token) storage.setItem(key, token);
    else storage.removeItem(key);
  } catch {
    // ignored: see above
  }
}
