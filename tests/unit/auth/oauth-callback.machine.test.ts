import { afterEach, describe, expect, it, vi } from 'vitest';

import { authResponse, deferred } from '../../../fakes/auth';
import {
  oauthCallbackLogic,
  readOAuthParams,
} from '../../../src/auth/oauth-callback/oauth-callback.machine';
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
    expect(actor.getSnapshot().value).toBe('exchanging');
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

  describe('a link opened while another account is signed in', () => {
    const CURRENT = { id: 'user-9', email: 'sam@example.com', display_name: 'Sam' };
    const setup = (input: { current?: typeof CURRENT | null; sessionPending?: boolean }) => {
      const signIn = vi.fn();
      const discard = vi.fn();
      const started = start(oauthCallbackLogic({ exchange: exchangeOk, signIn, discard }), {
        input: { ...readOAuthParams(SUCCESS), state: STATE, ...input },
      });
      return { ...started, signIn, discard };
    };

    it('asks, showing both accounts, and changes nothing until the student chooses', async () => {
      const { actor, notices, signIn, discard } = setup({ current: CURRENT });
      await settle(actor, 'confirmingSwitch');
      expect(actor.getSnapshot().context.current).toEqual(CURRENT);
      expect(actor.getSnapshot().context.incoming?.user.id).toBe('user-1');
      expect(signIn).not.toHaveBeenCalled();
      expect(discard).not.toHaveBeenCalled();
      expect(notices).toEqual([]);
    });

    it('staying drops the new sign-in on the server and goes to / signed in as before', async () => {
      const { actor, notices, signIn, discard } = setup({ current: CURRENT });
      await settle(actor, 'confirmingSwitch');
      actor.send({ type: 'switch.keep' });
      await settle(actor, 'kept');
      expect(discard).toHaveBeenCalledWith('r-g');
      expect(signIn).not.toHaveBeenCalled();
      expect(paths(notices)).toEqual(['/']);
      expect(toasts(notices)).toEqual([]);
    });

    it('switching signs in to the other account', async () => {
      const { actor, notices, signIn, discard } = setup({ current: CURRENT });
      await settle(actor, 'confirmingSwitch');
      actor.send({ type: 'switch.confirm' });
      await settle(actor, 'done');
      expect(signIn).toHaveBeenCalledWith('tok-g', 'r-g');
      expect(discard).not.toHaveBeenCalled();
      expect(toasts(notices)).toEqual(['success: Successfully signed in with Google!']);
    });

    it('the same account signed in again: no question', async () => {
      const { actor, signIn } = setup({ current: { ...CURRENT, id: 'user-1' } });
      await settle(actor, 'done');
      expect(signIn).toHaveBeenCalledWith('tok-g', 'r-g');
    });

    it('waits while the session still loads, then asks', async () => {
      const { actor, signIn } = setup({ sessionPending: true });
      await settle(actor, 'deciding');
      expect(signIn).not.toHaveBeenCalled();
      actor.send({ type: 'session.update', current: CURRENT, pending: false });
      expect(actor.getSnapshot().value).toBe('confirmingSwitch');
    });

    it('waits while the session still loads, then signs in when nobody is', async () => {
      const { actor, signIn } = setup({ sessionPending: true });
      await settle(actor, 'deciding');
      actor.send({ type: 'session.update', current: null, pending: false });
      await settle(actor, 'done');
      expect(signIn).toHaveBeenCalledWith('tok-g', 'r-g');
    });
  });
});
