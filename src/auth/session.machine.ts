import { assign, fromPromise, setup } from 'xstate';
import { ApiError } from '../lib/http-errors';
import { AUTH } from '../lib/limits';
import type { AuthAdapter, TokenResponse, User, UserResponse } from './auth.adapter';
import { unlessAborted } from './notices';
import { refreshAt, TOKEN_REFRESH } from './session.tokens';
import { notProvided, stubActor } from '../lib/stub-actor';

/** Where the access token is kept between visits: `localStorage` in a browser. */
export type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export type SessionContext = {
  token: string | null;
  /** When to refresh the token (ms since the epoch), or null when its lifetime is unknown. */
  refreshAt: number | null;
  user: User | null;
  /** Raised by a TRIAL_EXPIRED error; the host shows a dismissible banner (nothing is blocked). */
  trialExpired: boolean;
  /** Why the last sign-in failed to load the user. */
  error: unknown;
};

export type SessionEvent =
  /** A token from a sign-in (email, Google, wallet, verification link): store it, fetch the user. */
  | { type: 'auth.login'; token: string }
  | { type: 'auth.signOut' }
  /** Any call answered 401: the token is no good any more. */
  | { type: 'auth.unauthorized' }
  | { type: 'auth.trialExpired' }
  | { type: 'trial.dismiss' }
  /** A call answered with a fresher user (profile saved, onboarding completed). */
  | { type: 'user.update'; user: User };

/**
 * The signed-in session (spec section 4, "Auth"): `start` loads the stored token, `loading` fetches
 * the user, then `signedIn` or `signedOut`. Signed out, the user is the guest `guest-user`.
 * Signed in, the access token is swapped for a fresh one before it ends (`session.tokens.ts`):
 * `fresh` waits, `refreshing` asks the server, `retrying` waits after a call that got no answer;
 * a token whose lifetime cannot be read stays `untimed`. A refused refresh (401) signs out.
 */
export const sessionMachine = setup({
  types: { context: {} as SessionContext, events: {} as SessionEvent },
  actors: {
    me: stubActor<UserResponse>('me'),
    refresh: stubActor<TokenResponse>('refresh'),
  },
  actions: {
    loadToken: () => {
      throw notProvided('loadToken');
    },
    storeToken: (_, _params: { token: string }) => {
      throw notProvided('storeToken');
    },
    clearToken: () => {
      throw notProvided('clearToken');
    },
    forget: assign({ token: null, refreshAt: null, user: null }),
    // A stored token is judged by its own times; it may already be due.
    planStoredToken: assign({
      refreshAt: ({ context }) =>
        context.token ? refreshAt(context.token, Date.now(), { fresh: false }) : null,
    }),
  },
  guards: {
    hasToken: ({ context }) => Boolean(context.token),
    untimed: ({ context }) => context.refreshAt === null,
    refused: (_, params: { error: unknown }) =>
      params.error instanceof ApiError && params.error.status === 401,
  },
  delays: {
    refreshDue: ({ context }) => Math.max(0, (context.refreshAt ?? 0) - Date.now()),
    refreshRetry: TOKEN_REFRESH.retryMs,
  },
}).createMachine({
  id: 'session',
  context: { token: null, refreshAt: null, user: null, trialExpired: false, error: null },
  initial: 'start',
  states: {
    start: {
      entry: ['loadToken', 'planStoredToken'],
      always: [{ guard: 'hasToken', target: 'loading' }, { target: 'signedOut' }],
    },
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'me',
        onDone: {
          target: 'signedIn',
          actions: assign({ user: ({ event }) => event.output.user, error: null }),
        },
        onError: {
          target: 'signedOut',
          actions: ['clearToken', 'forget', assign({ error: ({ event }) => event.error })],
        },
      },
    },
    signedIn: {
      on: {
        'auth.signOut': { target: 'signedOut', actions: ['clearToken', 'forget'] },
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
          invoke: {
            src: 'refresh',
            onDone: {
              target: 'fresh',
              actions: [
                assign(({ event }) => ({
                  token: event.output.access_token,
                  refreshAt: refreshAt(event.output.access_token, Date.now(), {
                    fresh: true,
                    expiresIn: event.output.expires_in,
                  }),
                })),
                {
                  type: 'storeToken',
                  params: ({ event }) => ({ token: event.output.access_token }),
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
    signedOut: {},
  },
  on: {
    'auth.login': {
      target: '.loading',
      reenter: true,
      actions: [
        assign({
          token: ({ event }) => event.token,
          refreshAt: ({ event }) => refreshAt(event.token, Date.now(), { fresh: true }),
          error: null,
        }),
        { type: 'storeToken', params: ({ event }) => ({ token: event.token }) },
      ],
    },
    'auth.unauthorized': { target: '.signedOut', actions: ['clearToken', 'forget'] },
    'auth.trialExpired': { actions: assign({ trialExpired: true }) },
    'trial.dismiss': { actions: assign({ trialExpired: false }) },
  },
});

/** The session machine over `adapter`, keeping the token in `storage` under `authToken`. */
export function sessionLogic(adapter: AuthAdapter, storage: TokenStorage) {
  const key = AUTH.tokenStorageKey;
  return sessionMachine.provide({
    actors: {
      me: fromPromise(({ signal }) => unlessAborted(adapter.me({ signal }), signal)),
      refresh: fromPromise(({ signal }) => unlessAborted(adapter.refresh({ signal }), signal)),
    },
    actions: {
      loadToken: assign({ token: () => readToken(storage, key) }),
      storeToken: (_, { token }) => writeToken(storage, key, token),
      clearToken: () => writeToken(storage, key, null),
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
