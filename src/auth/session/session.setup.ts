import { assign, setup } from 'xstate';

import { ApiError } from '../../lib/http-errors';
import { notProvided, stubActor } from '../../lib/stub-actor';
import type { TokenResponse, UserResponse } from '../auth.adapter';
import type { SessionContext, SessionEvent } from '../auth.types';
import { refreshAt, TOKEN_REFRESH } from './session.tokens';

/** Types, actors (stubs until they are provided), guards and actions of `sessionMachine`. */
export const sessionSetup = setup({
  types: { context: {} as SessionContext, events: {} as SessionEvent },
  actors: {
    me: stubActor<UserResponse>('me'),
    refresh: stubActor<TokenResponse, { refreshToken: string }>('refresh'),
    logout: stubActor<unknown, { refreshToken: string | null }>('logout'),
  },
  actions: {
    loadToken: () => {
      throw notProvided('loadToken');
    },
    storeToken: (_, _params: { token: string; refreshToken: string | null }) => {
      throw notProvided('storeToken');
    },
    clearToken: () => {
      throw notProvided('clearToken');
    },
    forget: assign({ token: null, refreshToken: null, refreshAt: null, user: null }),
    // A refresh answer: the new access token, and the next refresh token (kept when none came).
    adoptRefreshed: assign(({ context }, params: { answer: TokenResponse }) => ({
      token: params.answer.access_token,
      refreshToken: params.answer.refresh_token ?? context.refreshToken,
      refreshAt: refreshAt(params.answer.access_token, Date.now(), {
        fresh: true,
        expiresIn: params.answer.expires_in,
      }),
    })),
    // A stored token is judged by its own times; it may already be due.
    planStoredToken: assign({
      refreshAt: ({ context }) =>
        context.token ? refreshAt(context.token, Date.now(), { fresh: false }) : null,
    }),
  },
  guards: {
    hasToken: ({ context }) => Boolean(context.token || context.refreshToken),
    untimed: ({ context }) => context.refreshAt === null || !context.refreshToken,
    canRenew: ({ context }) => Boolean(context.refreshToken),
    // The stored access token is missing or due, and a refresh token can renew it.
    renewFirst: ({ context }) =>
      Boolean(context.refreshToken) &&
      (!context.token || (context.refreshAt !== null && context.refreshAt <= Date.now())),
    refused: (_, params: { error: unknown }) =>
      params.error instanceof ApiError && params.error.status === 401,
  },
  delays: {
    logoutBound: 5000,
    refreshDue: ({ context }) => Math.max(0, (context.refreshAt ?? 0) - Date.now()),
    refreshRetry: TOKEN_REFRESH.retryMs,
  },
});
