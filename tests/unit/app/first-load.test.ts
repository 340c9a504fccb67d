import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../../src/api';
import { firstPage } from '../../../app/first-load';
import { withEarlyMe } from '../../../app/early-me';

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
