import { afterEach, describe, expect, it, vi } from 'vitest';

import { withEarlyMe, withSentMe } from '../../../app/early-me';
import { firstPage, SENT_ME } from '../../../app/first-load';
import type { Api } from '../../../src/api';

type AuthAdapter = Api['auth'];
const user = { user: { id: 'u1' } } as unknown as Awaited<ReturnType<AuthAdapter['me']>>;

function storeToken(token: string | null) {
  const items = new Map<string, string>(token ? [['authToken', token]] : []);
  vi.stubGlobal('localStorage', { getItem: (key: string) => items.get(key) ?? null });
}

afterEach(() => vi.unstubAllGlobals());

describe('firstPage', () => {
  it('names the page a first load of a path shows, signed out and signed in', () => {
    expect(firstPage('/auth', false)).toBe('AuthPage');
    expect(firstPage('/login/', false)).toBe('AuthPage');
    expect(firstPage('/assistant', false)).toBe('AuthPage');
    expect(firstPage('/assistant', true)).toBe('AssistantPage');
    expect(firstPage('/', true)).toBe('AssistantPage');
    expect(firstPage('/auth', true)).toBe('AssistantPage');
    expect(firstPage('/goal', true)).toBeNull();
    expect(firstPage('/terms', false)).toBeNull();
  });
});

describe('withEarlyMe', () => {
  it('asks /me at once when a token is stored, and answers the first call with it', async () => {
    storeToken('t');
    const me = vi.fn<AuthAdapter['me']>().mockResolvedValue(user);
    const auth = withEarlyMe({ me } as unknown as AuthAdapter);
    expect(me).toHaveBeenCalledTimes(1);
    await expect(auth.me()).resolves.toBe(user);
    expect(me).toHaveBeenCalledTimes(1);
    // Later calls are the adapter's own.
    await auth.me();
    expect(me).toHaveBeenCalledTimes(2);
  });

  it('asks again when the early answer was refused (a token the session renewed first)', async () => {
    storeToken('old');
    const me = vi
      .fn<AuthAdapter['me']>()
      .mockRejectedValueOnce(new Error('401'))
      .mockResolvedValueOnce(user);
    const auth = withEarlyMe({ me } as unknown as AuthAdapter);
    await expect(auth.me()).resolves.toBe(user);
    expect(me).toHaveBeenCalledTimes(2);
  });

  it('asks nothing early without a stored token', async () => {
    storeToken(null);
    const me = vi.fn<AuthAdapter['me']>().mockRejectedValue(new Error('401'));
    const auth = withEarlyMe({ me } as unknown as AuthAdapter);
    expect(me).not.toHaveBeenCalled();
    await expect(auth.me()).rejects.toThrow('401');
    expect(me).toHaveBeenCalledTimes(1);
  });
});

describe('withSentMe', () => {
  it("answers the first GET /me with the first-load script's request, once", async () => {
    vi.stubGlobal('location', new URL('http://app.test/assistant'));
    const sent = Promise.resolve(new Response('{"sent":true}'));
    vi.stubGlobal(SENT_ME, sent);
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(new Response('{}'));
    const send = withSentMe(fetch);
    // Another call first: it is fetch's own, and the sent /me waits for its taker.
    await send('/api/v1/goals', { method: 'GET' });
    expect(send('/api/v1/auth/me', { method: 'GET' })).toBe(sent);
    expect(fetch).toHaveBeenCalledTimes(1);
    await send('/api/v1/auth/me', { method: 'GET' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('is plain fetch when the script sent nothing (signed out)', async () => {
    vi.stubGlobal('location', new URL('http://app.test/auth'));
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(new Response('{}'));
    await withSentMe(fetch)('/api/v1/auth/me', { method: 'GET' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
