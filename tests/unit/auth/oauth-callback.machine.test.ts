import { afterEach, describe, expect, it, vi } from 'vitest';
import { oauthCallbackLogic, readOAuthParams } from '../../../src/auth/oauth-callback.machine';
import { authResponse, deferred } from '../../../fakes/auth';
import { paths, settle, start, toasts } from './support';

afterEach(() => {
  vi.useRealTimers();
});

const SUCCESS = '?code=one-time-code';
const STATE = 'this-browser-kept-this';
const exchangeOk = async () => ({ ...authResponse(), access_token: 'tok-g', refresh_token: 'r-g' });

describe('oauth-callback machine', () => {
  it('reads the query parameters', () => {
    expect(readOAuthParams(`${SUCCESS}&access_token=x`)).toMatchObject({
      code: 'one-time-code',
      access_token: 'x',
      error: null,
    });
  });

  it('exchanges the code with the browser’s one-time value, signs in, toasts and goes to /', async () => {
    const session = deferred<void>();
    const tokens: unknown[] = [];
    const exchanged: unknown[] = [];
    const { actor, notices } = start(
      oauthCallbackLogic({
        exchange: async (body) => (exchanged.push(body), exchangeOk()),
        signIn: (...pair: unknown[]) => {
          tokens.push(pair);
          return session.promise;
        },
      }),
      { input: { ...readOAuthParams(SUCCESS), state: STATE } },
    );
    expect(actor.getSnapshot().value).toBe('signingIn');
    await vi.waitFor(() => expect(tokens).toEqual([['tok-g', 'r-g']]));
    expect(exchanged).toEqual([{ code: 'one-time-code', state: STATE }]);

    session.resolve();
    await settle(actor, 'done');
    expect(toasts(notices)).toEqual(['success: Successfully signed in with Google!']);
    expect(paths(notices)).toEqual(['/']);
  });

  it('never signs in with a token from the URL (a link that would swap the account)', () => {
    const signIn = vi.fn();
    const exchange = vi.fn(exchangeOk);
    const { actor, notices } = start(oauthCallbackLogic({ exchange, signIn }), {
      input: {
        ...readOAuthParams('?access_token=attackers&refresh_token=theirs&token_type=bearer'),
        state: STATE,
      },
    });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(toasts(notices)).toEqual(['error: Authentication failed: No access token received']);
    expect(signIn).not.toHaveBeenCalled();
    expect(exchange).not.toHaveBeenCalled();
  });

  it('a code this browser did not start a sign-in for is refused before it is exchanged', () => {
    const exchange = vi.fn(exchangeOk);
    const { actor, notices } = start(oauthCallbackLogic({ exchange, signIn: () => {} }), {
      input: { ...readOAuthParams(SUCCESS), state: null },
    });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(toasts(notices)).toEqual(['error: Failed to complete Google sign-in']);
    expect(exchange).not.toHaveBeenCalled();
  });

  it('an error parameter: OAuth error: {error}, then /auth after 3 s', async () => {
    vi.useFakeTimers();
    const { actor, notices } = start(
      oauthCallbackLogic({ exchange: exchangeOk, signIn: () => {} }),
      { input: readOAuthParams('?error=access_denied&code=ignored') },
    );
    expect(actor.getSnapshot().value).toBe('failed');
    expect(toasts(notices)).toEqual(['error: OAuth error: access_denied']);
    await vi.advanceTimersByTimeAsync(2999);
    expect(paths(notices)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('returned');
    expect(paths(notices)).toEqual(['/auth']);
  });

  it('a refused code (used, expired, another browser’s): Failed to complete Google sign-in', async () => {
    const { actor, notices } = start(
      oauthCallbackLogic({
        exchange: () => Promise.reject(new Error('400')),
        signIn: () => {},
      }),
      { input: { ...readOAuthParams(SUCCESS), state: STATE } },
    );
    await settle(actor, 'failed');
    expect(toasts(notices)).toEqual(['error: Failed to complete Google sign-in']);
  });
});
