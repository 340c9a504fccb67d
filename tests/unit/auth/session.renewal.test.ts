import { describe, expect, it } from 'vitest';
import { type AnyActorRef, createActor, waitFor } from 'xstate';

import { apiError, fakeAuthAdapter } from '../../../fakes/auth';
import type { TokenResponse } from '../../../src/auth/auth.adapter';
import type { TokenStorage } from '../../../src/auth/auth.types';
import { memoryStorage, sessionLogic } from '../../../src/auth/session/session.machine';
import {
  type RenewalLocks,
  renewShared,
  type StoredTokens,
} from '../../../src/auth/session/session.renewal';
import { fakeJwt } from './support';

const KEY = 'authToken';
const REFRESH_KEY = 'authRefreshToken';

/** An access token that ended an hour ago: a tab opened now renews it before loading the user. */
const expired = () => {
  const iat = Math.floor(Date.now() / 1000) - 2 * 3600;
  return fakeJwt({ iat, exp: iat + 1800 });
};

/**
 * The server's rotation as it matters here: each refresh token works once and answers the next;
 * presenting a used one is reuse, which revokes the whole chain (every later token too).
 */
function rotatingServer() {
  const used = new Set<string>();
  let revoked = false;
  let n = 1;
  const refresh = async ({ refresh_token }: { refresh_token: string }): Promise<TokenResponse> => {
    // Both tabs' calls are in flight together, as two real requests would be.
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (revoked || used.has(refresh_token)) {
      revoked = true;
      throw apiError(401, 'Invalid refresh token');
    }
    used.add(refresh_token);
    n += 1;
    const iat = Math.floor(Date.now() / 1000);
    return {
      access_token: fakeJwt({ iat, exp: iat + 1800, n }),
      token_type: 'bearer',
      refresh_token: `r-${n}`,
    };
  };
  const me = async () => {
    if (revoked) throw apiError(401, 'Session revoked');
    return { user: (await fakeAuthAdapter().me()).user };
  };
  return { adapter: fakeAuthAdapter({ refresh, me }), revoked: () => revoked };
}

/** Web Locks within one page: one holder at a time, the others wait their turn. */
function memoryLocks(): RenewalLocks & { granted: string[] } {
  let tail: Promise<unknown> = Promise.resolve();
  const granted: string[] = [];
  return {
    granted,
    request(name, _options, callback) {
      const run = tail.then(() => (granted.push(name), callback()));
      tail = run.catch(() => {});
      return run;
    },
  };
}

/** The shared storage as the session machine reads and writes it. */
const storedIn = (storage: TokenStorage): StoredTokens => ({
  read: () => ({ token: storage.getItem(KEY), refreshToken: storage.getItem(REFRESH_KEY) }),
  write: (token, refreshToken) => {
    storage.setItem(KEY, token);
    storage.setItem(REFRESH_KEY, refreshToken ?? '');
  },
});

const settled = (actor: AnyActorRef) =>
  waitFor(actor, (s) => s.matches('signedIn') || s.matches('signedOut'), { timeout: 2000 });

describe('two tabs renewing one session at once (issue 22 #4)', () => {
  it('with Web Locks: one renews, the other adopts its tokens, both stay signed in', async () => {
    const storage = memoryStorage({ [KEY]: expired(), [REFRESH_KEY]: 'r-1' });
    const server = rotatingServer();
    const locks = memoryLocks();
    const tabs = [1, 2].map(() =>
      createActor(sessionLogic(server.adapter, storage, { locks })).start(),
    );
    const [a, b] = await Promise.all(tabs.map(settled));

    expect(a!.value).toEqual({ signedIn: 'fresh' });
    expect(b!.value).toEqual({ signedIn: 'fresh' });
    expect(server.revoked()).toBe(false);
    expect(locks.granted).toEqual(['ayah-token-renewal', 'ayah-token-renewal']);
    // One refresh call: the second tab took the first one's tokens from storage.
    const refreshes = server.adapter.calls.filter((call) => call.method === 'refresh');
    expect(refreshes).toEqual([{ method: 'refresh', body: { refresh_token: 'r-1' } }]);
    expect(a!.context.refreshToken).toBe('r-2');
    expect(b!.context.refreshToken).toBe('r-2');
    expect(b!.context.token).toBe(storage.getItem(KEY));
  });

  it('without Web Locks: a renewal another tab finished is adopted, the used token never presented', async () => {
    const storage = memoryStorage({ [KEY]: 'tok-of-the-other-tab', [REFRESH_KEY]: 'r-2' });
    const calls: string[] = [];
    const answer = await renewShared({
      presented: 'r-1',
      stored: {
        read: () => ({ token: storage.getItem(KEY), refreshToken: storage.getItem(REFRESH_KEY) }),
        write: () => calls.push('write'),
      },
      refresh: async (token) => (calls.push(token), Promise.reject(new Error('not called'))),
      signal: new AbortController().signal,
      locks: null,
    });
    expect(answer).toMatchObject({ access_token: 'tok-of-the-other-tab', refresh_token: 'r-2' });
    expect(calls).toEqual([]);
  });

  it('renews and stores the answer before letting go of the lock', async () => {
    const storage = memoryStorage({ [KEY]: 'old', [REFRESH_KEY]: 'r-1' });
    const locks = memoryLocks();
    const answer = await renewShared({
      presented: 'r-1',
      stored: storedIn(storage),
      refresh: async () => ({ access_token: 'new', token_type: 'bearer', refresh_token: 'r-2' }),
      signal: new AbortController().signal,
      locks,
    });
    expect(answer.access_token).toBe('new');
    expect(locks.granted).toEqual(['ayah-token-renewal']);
    expect([storage.getItem(KEY), storage.getItem(REFRESH_KEY)]).toEqual(['new', 'r-2']);
  });

  it('adopts the pair another tab recorded for this refresh token, whatever storage says yet', async () => {
    const storage = memoryStorage({ [KEY]: 'stale', [REFRESH_KEY]: 'r-1' });
    const renewed: TokenResponse = {
      access_token: 'new',
      token_type: 'bearer',
      refresh_token: 'r-2',
    };
    const calls: string[] = [];
    const answer = await renewShared({
      presented: 'r-1',
      stored: storedIn(storage),
      refresh: async (token) => (calls.push(token), Promise.reject(new Error('not called'))),
      signal: new AbortController().signal,
      locks: memoryLocks(),
      journal: {
        find: async (presented) => (presented === 'r-1' ? renewed : null),
        record: async () => {},
        forget: async () => {},
      },
    });
    expect(answer).toEqual(renewed);
    expect(calls).toEqual([]);
    expect([storage.getItem(KEY), storage.getItem(REFRESH_KEY)]).toEqual(['new', 'r-2']);
  });
});
