import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, createActor } from 'xstate';

import { apiError, deferred, fakeAuthAdapter, rejects, user } from '../../../fakes/auth';
import type { TokenResponse } from '../../../src/auth/auth.adapter';
import { memoryStorage, sessionLogic } from '../../../src/auth/session/session.machine';
import { readClaims, refreshAt, TOKEN_REFRESH } from '../../../src/auth/session/session.tokens';
import { networkError } from '../../../src/lib/http-errors';
import { fakeJwt } from './support';

const KEY = 'authToken';
const REFRESH_KEY = 'authRefreshToken';
const MINUTE = 60_000;
const NOW = Date.parse('2026-01-02T08:00:00.000Z');
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A token issued `ageMs` ago that lives 30 minutes, as the server's do. */
function serverToken(ageMs = 0, lifetimeMs = 30 * MINUTE) {
  const iat = seconds(Date.now() - ageMs);
  return fakeJwt({ iat, exp: iat + seconds(lifetimeMs) });
}

function refreshed(token = serverToken(), refreshToken = 'r-next'): TokenResponse {
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: 1800,
    refresh_token: refreshToken,
  };
}

/** Runs due timers (the fake clock stands still) until the actor reaches `value`. */
async function settle(actor: AnyActorRef, value: unknown) {
  for (let turn = 0; turn < 20 && !actor.getSnapshot().matches(value); turn += 1) {
    await vi.advanceTimersByTimeAsync(0);
  }
  expect(actor.getSnapshot().matches(value)).toBe(true);
}

/** The bodies of the refresh calls so far. */
function refreshCalls(adapter: ReturnType<typeof fakeAuthAdapter>) {
  return adapter.calls.filter((call) => call.method === 'refresh').map((call) => call.body);
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('session machine: keeping the session alive', () => {
  it('refreshes a new sign-in at 80 % of its lifetime with its refresh token, and stores both new tokens', async () => {
    const next = serverToken(0);
    const answer = deferred<TokenResponse>();
    const storage = memoryStorage();
    const adapter = fakeAuthAdapter({ refresh: () => answer.promise });
    const actor = createActor(sessionLogic(adapter, storage)).start();
    const first = serverToken();

    actor.send({ type: 'auth.login', token: first, refreshToken: 'r-1' });
    expect(storage.getItem(REFRESH_KEY)).toBe('r-1');
    await settle(actor, { signedIn: 'fresh' });

    await vi.advanceTimersByTimeAsync(24 * MINUTE - 1);
    expect(refreshCalls(adapter)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'refreshing' });
    expect(refreshCalls(adapter)).toEqual([{ refresh_token: 'r-1' }]);
    // Still signed in with the old token while the call runs, and no spinner for it.
    expect(actor.getSnapshot().context.token).toBe(first);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);

    answer.resolve(refreshed(next, 'r-2'));
    await settle(actor, { signedIn: 'fresh' });
    expect(actor.getSnapshot().context).toMatchObject({ token: next, refreshToken: 'r-2', user });
    expect(storage.getItem(KEY)).toBe(next);
    expect(storage.getItem(REFRESH_KEY)).toBe('r-2');
  });

  it('keeps refreshing, every 80 % of expires_in, each time with the latest refresh token', async () => {
    let n = 1;
    const adapter = fakeAuthAdapter({ refresh: async () => refreshed(serverToken(), `r-${++n}`) });
    const actor = createActor(sessionLogic(adapter, memoryStorage())).start();
    actor.send({ type: 'auth.login', token: serverToken(), refreshToken: 'r-1' });
    await settle(actor, 'signedIn');

    await vi.advanceTimersByTimeAsync(24 * MINUTE);
    await vi.advanceTimersByTimeAsync(24 * MINUTE);
    await vi.advanceTimersByTimeAsync(24 * MINUTE);
    expect(refreshCalls(adapter)).toEqual([
      { refresh_token: 'r-1' },
      { refresh_token: 'r-2' },
      { refresh_token: 'r-3' },
    ]);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
  });

  it('a tab that slept past its 30 minutes resumes: the stored refresh token renews before the user is fetched', async () => {
    const next = serverToken();
    const storage = memoryStorage({ [KEY]: serverToken(2 * 60 * MINUTE), [REFRESH_KEY]: 'r-1' });
    const adapter = fakeAuthAdapter({ refresh: async () => refreshed(next, 'r-2') });
    const actor = createActor(sessionLogic(adapter, storage)).start();
    expect(actor.getSnapshot().matches({ loading: 'renewing' })).toBe(true);

    await settle(actor, { signedIn: 'fresh' });
    expect(adapter.calls.map((call) => call.method)).toEqual(['refresh', 'me']);
    expect(storage.getItem(KEY)).toBe(next);
    expect(storage.getItem(REFRESH_KEY)).toBe('r-2');
  });

  it('a 401 on waking (the access token ended while the tab slept) renews instead of signing out', async () => {
    const next = serverToken();
    const adapter = fakeAuthAdapter({ refresh: async () => refreshed(next, 'r-2') });
    const actor = createActor(sessionLogic(adapter, memoryStorage())).start();
    actor.send({ type: 'auth.login', token: serverToken(), refreshToken: 'r-1' });
    await settle(actor, { signedIn: 'fresh' });

    actor.send({ type: 'auth.unauthorized' });
    await settle(actor, { signedIn: 'fresh' });
    expect(refreshCalls(adapter)).toEqual([{ refresh_token: 'r-1' }]);
    expect(actor.getSnapshot().context).toMatchObject({ token: next, refreshToken: 'r-2' });
  });

  it('a session without a refresh token is never refreshed (the server refuses an access token alone)', async () => {
    const adapter = fakeAuthAdapter();
    const storage = memoryStorage({ [KEY]: serverToken(10 * MINUTE) });
    const actor = createActor(sessionLogic(adapter, storage)).start();
    await settle(actor, { signedIn: 'untimed' });
    await vi.advanceTimersByTimeAsync(24 * 60 * MINUTE);
    expect(refreshCalls(adapter)).toEqual([]);
    actor.send({ type: 'auth.unauthorized' });
    expect(actor.getSnapshot().value).toBe('signedOut');
  });

  it('refreshes a stored token at 80 % of its own lifetime', async () => {
    const storage = memoryStorage({ [KEY]: serverToken(10 * MINUTE), [REFRESH_KEY]: 'r-1' });
    const adapter = fakeAuthAdapter({ refresh: async () => refreshed() });
    createActor(sessionLogic(adapter, storage)).start();

    await vi.advanceTimersByTimeAsync(14 * MINUTE - 1);
    expect(refreshCalls(adapter)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(refreshCalls(adapter)).toHaveLength(1);
  });

  it('a refused refresh (401) clears both tokens and signs out', async () => {
    const storage = memoryStorage({ [KEY]: serverToken(29.5 * MINUTE), [REFRESH_KEY]: 'r-1' });
    const adapter = fakeAuthAdapter({ refresh: rejects(apiError(401, 'Token has expired')) });
    const actor = createActor(sessionLogic(adapter, storage)).start();

    await settle(actor, 'signedOut');
    expect(actor.getSnapshot().context).toMatchObject({
      token: null,
      refreshToken: null,
      user: null,
      refreshAt: null,
    });
    expect(storage.getItem(KEY)).toBeNull();
    expect(storage.getItem(REFRESH_KEY)).toBeNull();
  });

  it.each([
    ['no answer (network)', networkError(new TypeError('fetch failed'))],
    ['a server error', apiError(503)],
  ])('after %s it stays signed in and tries again 30 s later', async (_, error) => {
    const stored = serverToken(20 * MINUTE);
    const storage = memoryStorage({ [KEY]: stored, [REFRESH_KEY]: 'r-1' });
    const next = serverToken();
    let calls = 0;
    const adapter = fakeAuthAdapter({
      refresh: async () => {
        calls += 1;
        if (calls === 1) throw error;
        return refreshed(next);
      },
    });
    const actor = createActor(sessionLogic(adapter, storage)).start();

    await settle(actor, { signedIn: 'fresh' });
    await vi.advanceTimersByTimeAsync(4 * MINUTE);
    await settle(actor, { signedIn: 'retrying' });
    expect(actor.getSnapshot().context).toMatchObject({ token: stored, user });
    expect(storage.getItem(KEY)).toBe(stored);

    await vi.advanceTimersByTimeAsync(TOKEN_REFRESH.retryMs - 1);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle(actor, { signedIn: 'fresh' });
    expect(calls).toBe(2);
    expect(storage.getItem(KEY)).toBe(next);
  });

  it('a token whose lifetime cannot be read is never refreshed', async () => {
    const adapter = fakeAuthAdapter();
    const storage = memoryStorage({ [KEY]: 'opaque', [REFRESH_KEY]: 'r-1' });
    const actor = createActor(sessionLogic(adapter, storage)).start();
    await settle(actor, { signedIn: 'untimed' });
    await vi.advanceTimersByTimeAsync(24 * 60 * MINUTE);
    expect(refreshCalls(adapter)).toEqual([]);
  });

  it('signing out during a refresh aborts it, and its late answer changes nothing', async () => {
    const answer = deferred<TokenResponse>();
    let signal: AbortSignal | undefined;
    const storage = memoryStorage({ [KEY]: serverToken(20 * MINUTE), [REFRESH_KEY]: 'r-1' });
    const adapter = fakeAuthAdapter({
      refresh: (_body, options) => {
        signal = options?.signal;
        return answer.promise;
      },
    });
    const actor = createActor(sessionLogic(adapter, storage)).start();
    await settle(actor, { signedIn: 'fresh' });
    await vi.advanceTimersByTimeAsync(4 * MINUTE);
    await settle(actor, { signedIn: 'refreshing' });

    actor.send({ type: 'auth.signOut' });
    expect(signal?.aborted).toBe(true);
    answer.resolve(refreshed());
    await settle(actor, 'signedOut');
    expect(storage.getItem(KEY)).toBeNull();
    expect(storage.getItem(REFRESH_KEY)).toBeNull();
  });

  it('a 401 elsewhere while refreshing leaves the verdict to the refresh', async () => {
    const answer = deferred<TokenResponse>();
    const storage = memoryStorage({ [KEY]: serverToken(20 * MINUTE), [REFRESH_KEY]: 'r-1' });
    const adapter = fakeAuthAdapter({ refresh: () => answer.promise });
    const actor = createActor(sessionLogic(adapter, storage)).start();
    await settle(actor, { signedIn: 'fresh' });
    await vi.advanceTimersByTimeAsync(4 * MINUTE);
    await settle(actor, { signedIn: 'refreshing' });
    actor.send({ type: 'auth.unauthorized' });
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'refreshing' });
    answer.reject(apiError(401, 'Invalid or expired refresh token'));
    await settle(actor, 'signedOut');
    expect(storage.getItem(KEY)).toBeNull();
  });
});

describe('refreshAt and readClaims', () => {
  it('reads exp and iat from a JWT without verifying it, and nothing from other strings', () => {
    expect(readClaims(fakeJwt({ iat: 100, exp: 1900 }))).toEqual({ iat: 100, exp: 1900 });
    expect(readClaims(fakeJwt({ exp: 'soon' }))).toEqual({});
    expect(readClaims('opaque')).toBeNull();
    expect(readClaims('a.%%%.c')).toBeNull();
    expect(readClaims(`a.${Buffer.from('[1]').toString('base64url')}.c`)).toEqual({});
  });

  it('counts a fresh token’s lifetime from now, so a wrong device clock does not matter', () => {
    // Issued by a server whose clock is an hour ahead of the device's.
    const iat = seconds(NOW + 60 * MINUTE);
    const token = fakeJwt({ iat, exp: iat + 1800 });
    expect(refreshAt(token, NOW, { fresh: true })).toBe(NOW + 24 * MINUTE);
    expect(refreshAt('opaque', NOW, { fresh: true, expiresIn: 600 })).toBe(NOW + 8 * MINUTE);
    expect(refreshAt('opaque', NOW, { fresh: true })).toBeNull();
  });

  it('judges a stored token by its own times', () => {
    const iat = seconds(NOW - 10 * MINUTE);
    expect(refreshAt(fakeJwt({ iat, exp: iat + 1800 }), NOW, { fresh: false })).toBe(
      NOW + 14 * MINUTE,
    );
    // Past 80 %, or a minute or less left: at once.
    const old = seconds(NOW - 25 * MINUTE);
    expect(refreshAt(fakeJwt({ iat: old, exp: old + 1800 }), NOW, { fresh: false })).toBe(
      NOW - MINUTE,
    );
    expect(refreshAt(fakeJwt({ exp: seconds(NOW + 50_000) }), NOW, { fresh: false })).toBe(NOW);
    // No iat: 80 % of what is left.
    expect(refreshAt(fakeJwt({ exp: seconds(NOW + 10 * MINUTE) }), NOW, { fresh: false })).toBe(
      NOW + 8 * MINUTE,
    );
    expect(refreshAt('opaque', NOW, { fresh: false })).toBeNull();
  });
});
