import { afterEach, describe, expect, it, vi } from 'vitest';
import { oauthCallbackLogic, readOAuthParams } from '../../../src/auth/oauth-callback.machine';
import { deferred } from '../../../fakes/auth';
import { paths, settle, start, toasts } from './support';

afterEach(() => {
  vi.useRealTimers();
});

const SUCCESS =
  '?access_token=tok-g&token_type=bearer&user_id=u1&user_name=Ada%20L&user_email=ada%40example.org&user_avatar=&refresh_token=r-g';

describe('oauth-callback machine', () => {
  it('reads the query parameters', () => {
    expect(readOAuthParams(SUCCESS)).toEqual({
      access_token: 'tok-g',
      token_type: 'bearer',
      user_id: 'u1',
      user_name: 'Ada L',
      user_email: 'ada@example.org',
      user_avatar: '',
      refresh_token: 'r-g',
      error: null,
    });
  });

  it('signs in with the token, then toasts and goes to /', async () => {
    const session = deferred<void>();
    const tokens: unknown[] = [];
    const { actor, notices } = start(
      oauthCallbackLogic({
        signIn: (...pair: unknown[]) => {
          tokens.push(pair);
          return session.promise;
        },
      }),
      { input: readOAuthParams(SUCCESS) },
    );
    expect(actor.getSnapshot().value).toBe('signingIn');
    expect(actor.getSnapshot().context.userName).toBe('Ada L');
    expect(tokens).toEqual([['tok-g', 'r-g']]);

    session.resolve();
    await settle(actor, 'done');
    expect(toasts(notices)).toEqual(['success: Successfully signed in with Google!']);
    expect(paths(notices)).toEqual(['/']);
  });

  it('an error parameter: OAuth error: {error}, then /auth after 3 s', async () => {
    vi.useFakeTimers();
    const { actor, notices } = start(oauthCallbackLogic({ signIn: () => {} }), {
      input: readOAuthParams('?error=access_denied&access_token=ignored'),
    });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(toasts(notices)).toEqual(['error: OAuth error: access_denied']);
    await vi.advanceTimersByTimeAsync(2999);
    expect(paths(notices)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('returned');
    expect(paths(notices)).toEqual(['/auth']);
  });

  it('no token: Authentication failed: No access token received', () => {
    const { actor, notices } = start(oauthCallbackLogic({ signIn: () => {} }), {
      input: readOAuthParams('?token_type=bearer'),
    });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(toasts(notices)).toEqual(['error: Authentication failed: No access token received']);
  });

  it('a session that cannot load the user: Failed to complete Google sign-in', async () => {
    const { actor, notices } = start(
      oauthCallbackLogic({ signIn: () => Promise.reject(new Error('401')) }),
      { input: readOAuthParams(SUCCESS) },
    );
    await settle(actor, 'failed');
    expect(toasts(notices)).toEqual(['error: Failed to complete Google sign-in']);
  });
});
