import { createActor, type AnyActorRef } from 'xstate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenResponse } from '../../../src/auth/auth.adapter';
import { memoryStorage, sessionLogic } from '../../../src/auth/session.machine';
import { readClaims, refreshAt, TOKEN_REFRESH } from '../../../src/auth/session.tokens';
import { networkError } from '../../../src/lib/http-errors';
import { apiError, deferred, fakeAuthAdapter, never, rejects, user } from '../../fakes/auth';
import { fakeJwt } from './support';

const KEY = 'authToken';
const MINUTE = 60_000;
const NOW = Date.parse('2026-01-02T08:00:00.000Z');
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A token issued `ageMs` ago that lives 30 minutes, as the server's do. */
function serverToken(ageMs = 0, lifetimeMs = 30 * MINUTE) {
  const iat = seconds(Date.now() - ageMs);
  return fakeJwt({ iat, exp: iat + seconds(lifetimeMs) });
}

function refreshed(token = serverToken()): TokenResponse {
  return { access_token: token, token_type: 'bearer', expires_in: 1800 };
}

/** Runs due timers (the fake clock stands still) until the actor reaches `value`. */
async function settle(actor: AnyActorRef, value: unknown) {
  for (let turn = 0; turn < 20 && !actor.getSnapshot().matches(value); turn += 1) {
    await vi.advanceTimersByTimeAsync(0);
  }
  expect(actor.getSnapshot().matches(value)).toBe(true);
}

function refreshCalls(adapter: ReturnType<typeof fakeAuthAdapter>) {
  return adapter.calls.filter((call) => call.method === 'refresh').length;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('session machine: keeping the session alive', () => {
  it('refreshes a new sign-in at 80 % of its lifetime and stores the new token', async () => {
    const next = serverToken(0);
    const answer = deferred<TokenResponse>();
    const storage = memoryStorage();
    const adapter = fakeAuthAdapter({ refresh: () => answer.promise });
    const actor = createActor(sessionLogic(adapter, storage)).start();
    const first = serverToken();

    actor.send({ type: 'auth.login', token: first });
    await settle(actor, { signedIn: 'fresh' });

    await vi.advanceTimersByTimeAsync(24 * MINUTE - 1);
    expect(refreshCalls(adapter)).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'refreshing' });
    expect(refreshCalls(adapter)).toBe(1);
    // Still signed in with the old token while the call runs, and no spinner for it.
    expect(actor.getSnapshot().context.token).toBe(first);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);

    answer.resolve(refreshed(next));
    await settle(actor, { signedIn: 'fresh' });
    expect(actor.getSnapshot().context).toMatchObject({ token: next, user });
    expect(storage.getItem(KEY)).toBe(next);
  });

  it('keeps refreshing, every 80 % of expires_in', async () => {
    const adapter = fakeAuthAdapter({ refresh: async () => refreshed() });
    const actor = createActor(sessionLogic(adapter, memoryStorage())).start();
    actor.send({ type: 'auth.login', token: serverToken() });
    await settle(actor, 'signedIn');

    await vi.advanceTimersByTimeAsync(24 * MINUTE);
    expect(refreshCalls(adapter)).toBe(1);
    await vi.advanceTimersByTimeAsync(24 * MINUTE);
    expect(refreshCalls(adapter)).toBe(2);
    await vi.advanceTimersByTimeAsync(24 * MINUTE);
    expect(refreshCalls(adapter)).toBe(3);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
  });

  it('refreshes a stored token that expires within a minute right away', async () => {
    const next = serverToken();
    const storage = memoryStorage({ [KEY]: serverToken(29.5 * MINUTE) });
    const adapter = fakeAuthAdapter({ refresh: async () => refreshed(next) });
    const actor = createActor(sessionLogic(adapter, storage)).start();

    await vi.advanceTimersByTimeAsync(0);
    expect(adapter.calls.map((call) => call.method)).toEqual(['me', 'refresh']);
    await settle(actor, { signedIn: 'fresh' });
    expect(storage.getItem(KEY)).toBe(next);
  });

  it('refreshes a stored token at 80 % of its own lifetime', async () => {
    const storage = memoryStorage({ [KEY]: serverToken(10 * MINUTE) });
    const adapter = fakeAuthAdapter({ refresh: async () => refreshed() });
    createActor(sessionLogic(adapter, storage)).start();

    await vi.advanceTimersByTimeAsync(14 * MINUTE - 1);
    expect(refreshCalls(adapter)).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(refreshCalls(adapter)).toBe(1);
  });

  it('a refused refresh (401) clears the token and signs out', async () => {
    const storage = memoryStorage({ [KEY]: serverToken(29.5 * MINUTE) });
    const adapter = fakeAuthAdapter({ refresh: rejects(apiError(401, 'Token has expired')) });
    const actor = createActor(sessionLogic(adapter, storage)).start();

    await settle(actor, 'signedOut');
    expect(actor.getSnapshot().context).toMatchObject({ token: null, user: null, refreshAt: null });
    expect(storage.getItem(KEY)).toBeNull();
  });

  it.each([
    ['no answer (network)', networkError(new TypeError('fetch failed'))],
    ['a server error', apiError(503)],
  ])('after %s it stays signed in and tries again 30 s later', async (_, error) => {
    const stored = serverToken(29.5 * MINUTE);
    const storage = memoryStorage({ [KEY]: stored });
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
    const actor = createActor(sessionLogic(adapter, memoryStorage({ [KEY]: 'opaque' }))).start();
    await settle(actor, { signedIn: 'untimed' });
    await vi.advanceTimersByTimeAsync(24 * 60 * MINUTE);
    expect(refreshCalls(adapter)).toBe(0);
  });

  it('signing out during a refresh aborts it, and its late answer changes nothing', async () => {
    const answer = deferred<TokenResponse>();
    let signal: AbortSignal | undefined;
    const storage = memoryStorage({ [KEY]: serverToken(29.5 * MINUTE) });
    const adapter = fakeAuthAdapter({
      refresh: (options) => {
        signal = options?.signal;
        return answer.promise;
      },
    });
    const actor = createActor(sessionLogic(adapter, storage)).start();
    await settle(actor, { signedIn: 'refreshing' });

    actor.send({ type: 'auth.signOut' });
    expect(signal?.aborted).toBe(true);
    answer.resolve(refreshed());
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(storage.getItem(KEY)).toBeNull();
  });

  it('a 401 elsewhere while refreshing signs out too', async () => {
    const storage = memoryStorage({ [KEY]: serverToken(29.5 * MINUTE) });
    const actor = createActor(sessionLogic(fakeAuthAdapter({ refresh: never }), storage)).start();
    await settle(actor, { signedIn: 'refreshing' });
    actor.send({ type: 'auth.unauthorized' });
    expect(actor.getSnapshot().value).toBe('signedOut');
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
