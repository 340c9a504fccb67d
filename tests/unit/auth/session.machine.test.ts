import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';

import { apiError, deferred, fakeAuthAdapter, never, rejects, user } from '../../../fakes/auth';
import {
  isNewUser,
  memoryStorage,
  sessionLogic,
  sessionMachine,
} from '../../../src/auth/session/session.machine';
import { settle } from './support';

const KEY = 'authToken';
const REFRESH_KEY = 'authRefreshToken';

describe('session machine', () => {
  it('signs out at once when no token is stored', () => {
    const actor = createActor(sessionLogic(fakeAuthAdapter(), memoryStorage())).start();
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.user).toBeNull();
  });

  it('loads the stored token and fetches the user', async () => {
    const me = deferred<{ user: typeof user }>();
    const adapter = fakeAuthAdapter({ me: () => me.promise });
    const actor = createActor(sessionLogic(adapter, memoryStorage({ [KEY]: 'tok-1' }))).start();

    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.token).toBe('tok-1');

    me.resolve({ user });
    await settle(actor, 'signedIn');
    expect(actor.getSnapshot().context.user).toEqual(user);
    expect(adapter.calls.map((call) => call.method)).toEqual(['me']);
  });

  it('clears the token and signs out when fetching the user fails', async () => {
    const storage = memoryStorage({ [KEY]: 'stale' });
    const actor = createActor(
      sessionLogic(fakeAuthAdapter({ me: rejects(apiError(401, 'Token has expired')) }), storage),
    ).start();

    await settle(actor, 'signedOut');
    expect(actor.getSnapshot().context.token).toBeNull();
    expect(storage.getItem(KEY)).toBeNull();
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
  });

  it('login stores the token and fetches the user', async () => {
    const storage = memoryStorage();
    const actor = createActor(sessionLogic(fakeAuthAdapter(), storage)).start();

    actor.send({ type: 'auth.login', token: 'tok-2' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(storage.getItem(KEY)).toBe('tok-2');

    await settle(actor, 'signedIn');
    expect(actor.getSnapshot().context).toMatchObject({ token: 'tok-2', user });
  });

  it('a second login while loading starts over with the new token', async () => {
    const calls: string[] = [];
    const storage = memoryStorage();
    const adapter = fakeAuthAdapter({
      me: () => {
        calls.push(storage.getItem(KEY) ?? '');
        return calls.length === 1 ? never() : Promise.resolve({ user });
      },
    });
    const actor = createActor(sessionLogic(adapter, storage)).start();
    actor.send({ type: 'auth.login', token: 'first' });
    actor.send({ type: 'auth.login', token: 'second' });
    await settle(actor, 'signedIn');
    expect(calls).toEqual(['first', 'second']);
    expect(actor.getSnapshot().context.token).toBe('second');
  });

  it('sign-out forgets the tokens at once and signs the session out on the server', async () => {
    const storage = memoryStorage({ [KEY]: 'tok-1', [REFRESH_KEY]: 'refresh-1' });
    const logout = deferred<{ message: string }>();
    const adapter = fakeAuthAdapter({ logout: () => logout.promise });
    const actor = createActor(sessionLogic(adapter, storage)).start();
    await settle(actor, 'signedIn');

    actor.send({ type: 'auth.signOut' });
    // Gone from storage before the server answers: a reload now is signed out.
    expect(actor.getSnapshot().value).toBe('signingOut');
    expect(storage.getItem(KEY)).toBeNull();
    expect(storage.getItem(REFRESH_KEY)).toBeNull();
    expect(adapter.calls.at(-1)).toEqual({
      method: 'logout',
      body: { refresh_token: 'refresh-1' },
    });
    logout.resolve({ message: 'Signed out' });
    await settle(actor, 'signedOut');
    expect(actor.getSnapshot().context).toMatchObject({
      token: null,
      refreshToken: null,
      user: null,
    });
  });

  it('sign-out ends even when the logout call fails or never answers', async () => {
    const failing = createActor(
      sessionLogic(
        fakeAuthAdapter({ logout: rejects(apiError(503)) }),
        memoryStorage({ [KEY]: 'tok-1' }),
      ),
    ).start();
    await settle(failing, 'signedIn');
    failing.send({ type: 'auth.signOut' });
    await settle(failing, 'signedOut');

    vi.useFakeTimers();
    try {
      const hanging = createActor(
        sessionLogic(fakeAuthAdapter({ logout: never }), memoryStorage({ [KEY]: 'tok-1' })),
      ).start();
      await vi.advanceTimersByTimeAsync(0);
      expect(hanging.getSnapshot().matches('signedIn')).toBe(true);
      hanging.send({ type: 'auth.signOut' });
      await vi.advanceTimersByTimeAsync(5000);
      expect(hanging.getSnapshot().value).toBe('signedOut');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a 401 anywhere clears the token, also while loading', async () => {
    const storage = memoryStorage({ [KEY]: 'tok-1' });
    const actor = createActor(sessionLogic(fakeAuthAdapter({ me: never }), storage)).start();
    expect(actor.getSnapshot().matches('loading')).toBe(true);

    actor.send({ type: 'auth.unauthorized' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(storage.getItem(KEY)).toBeNull();
  });

  it('a 401 when signed in signs out', async () => {
    const storage = memoryStorage({ [KEY]: 'tok-1' });
    const actor = createActor(sessionLogic(fakeAuthAdapter(), storage)).start();
    await settle(actor, 'signedIn');
    actor.send({ type: 'auth.unauthorized' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(storage.getItem(KEY)).toBeNull();
  });

  it('TRIAL_EXPIRED raises the trial flag, which can be dismissed; nothing else changes', async () => {
    const actor = createActor(
      sessionLogic(fakeAuthAdapter(), memoryStorage({ [KEY]: 'tok-1' })),
    ).start();
    await settle(actor, 'signedIn');

    actor.send({ type: 'auth.trialExpired' });
    expect(actor.getSnapshot().context.trialExpired).toBe(true);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);

    actor.send({ type: 'trial.dismiss' });
    expect(actor.getSnapshot().context.trialExpired).toBe(false);
  });

  it('adopts a fresher user', async () => {
    const actor = createActor(
      sessionLogic(fakeAuthAdapter(), memoryStorage({ [KEY]: 'tok-1' })),
    ).start();
    await settle(actor, 'signedIn');
    const fresher = { ...user, display_name: 'Ada L.' };
    actor.send({ type: 'user.update', user: fresher });
    expect(actor.getSnapshot().context.user).toEqual(fresher);
  });

  it('keeps working when the storage throws', async () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const actor = createActor(sessionLogic(fakeAuthAdapter(), broken)).start();
    expect(actor.getSnapshot().value).toBe('signedOut');
    actor.send({ type: 'auth.login', token: 'tok-3' });
    await settle(actor, 'signedIn');
    expect(actor.getSnapshot().context.token).toBe('tok-3');
  });

  it('fails loudly without its adapter', () => {
    const actor = createActor(sessionMachine);
    const errors: unknown[] = [];
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.start();
    expect(actor.getSnapshot().status).toBe('error');
    expect(String(errors[0])).toContain('loadToken must be provided');
  });
});

describe('isNewUser', () => {
  it.each([
    [null, '2026-01-01T08:00:00Z', true],
    ['', '2026-01-01T08:00:00Z', true],
    ['2026-01-01T08:00:00Z', '2026-01-01T08:00:00Z', true],
    ['2026-01-01T08:00:00.000Z', '2026-01-01T08:00:00Z', true],
    ['2026-01-02T08:00:00Z', '2026-01-01T08:00:00Z', false],
  ])('last_login %j, created_at %j → %s', (last_login, created_at, expected) => {
    expect(isNewUser({ last_login, created_at })).toBe(expected);
  });
});
