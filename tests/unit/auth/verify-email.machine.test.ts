import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  apiError,
  authResponse,
  deferred,
  fakeAuthAdapter,
  never,
  rejects,
  TOKEN,
} from '../../../fakes/auth';
import type { AuthResponse } from '../../../src/auth/auth.adapter';
import { verifyEmailLogic } from '../../../src/auth/verify-email/verify-email.machine';
import { AUTH_MESSAGES } from '../../../src/lib/messages';
import { flush, paths, settle, start, toasts } from './support';

afterEach(() => {
  vi.useRealTimers();
});

function page(
  input: { email?: string | null; token?: string | null },
  adapter = fakeAuthAdapter(),
  signIn: (token: string) => unknown = () => {},
) {
  return { ...start(verifyEmailLogic(adapter, { signIn }), { input }), adapter };
}

describe('verify-email machine: resending', () => {
  it('idle → loading → success, whose banner clears after 3 s', async () => {
    vi.useFakeTimers();
    const resend = deferred<{ message: string }>();
    const { actor, adapter } = page(
      { email: 'ada@example.org' },
      fakeAuthAdapter({ resendVerification: () => resend.promise }),
    );
    expect(actor.getSnapshot().value).toBe('idle');

    actor.send({ type: 'verify.resend' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can({ type: 'verify.resend' })).toBe(false);
    expect(adapter.calls).toEqual([
      { method: 'resendVerification', body: { email: 'ada@example.org' } },
    ]);

    resend.resolve({ message: 'sent' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('success');
    await vi.advanceTimersByTimeAsync(2999);
    expect(actor.getSnapshot().value).toBe('success');
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('error: the default message, or the server one', async () => {
    const plain = page(
      { email: 'ada@example.org' },
      fakeAuthAdapter({ resendVerification: rejects(apiError(500)) }),
    );
    plain.actor.send({ type: 'verify.resend' });
    await settle(plain.actor, 'error');
    expect(plain.actor.getSnapshot().context.error).toBe('Failed to resend verification email');

    const worded = page(
      { email: 'ada@example.org' },
      fakeAuthAdapter({
        resendVerification: rejects(apiError(429, 'Please wait a minute before asking again')),
      }),
    );
    worded.actor.send({ type: 'verify.resend' });
    await settle(worded.actor, 'error');
    expect(worded.actor.getSnapshot().context.error).toBe(
      'Please wait a minute before asking again',
    );

    // A retry clears the error while it runs.
    worded.adapter.resendVerification = async () => ({ message: 'ok' });
    worded.actor.send({ type: 'verify.resend' });
    expect(worded.actor.getSnapshot().context.error).toBeNull();
  });

  it('without an email: Email address not found, and no call', () => {
    const { actor, adapter } = page({ email: '  ' });
    actor.send({ type: 'verify.resend' });
    expect(actor.getSnapshot().value).toBe('error');
    expect(actor.getSnapshot().context.error).toBe('Email address not found');
    expect(adapter.calls).toEqual([]);
  });

  it('can resend again from success', async () => {
    const { actor, adapter } = page({ email: 'ada@example.org' });
    actor.send({ type: 'verify.resend' });
    await settle(actor, 'success');
    actor.send({ type: 'verify.resend' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(adapter.calls).toHaveLength(2);
  });
});

describe('verify-email machine: the emailed link', () => {
  it('verifies the token, signs in and goes to onboarding', async () => {
    const tokens: string[] = [];
    const { actor, adapter, notices } = page({ token: 'link-1' }, fakeAuthAdapter(), (token) =>
      tokens.push(token),
    );
    expect(actor.getSnapshot().value).toEqual({ verifying: 'checking' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await settle(actor, 'verified');
    expect(adapter.calls).toEqual([{ method: 'verifyEmail', body: { token: 'link-1' } }]);
    expect(tokens).toEqual([TOKEN]);
    expect(toasts(notices)).toEqual(['success: Signed in successfully!']);
    expect(paths(notices)).toEqual(['/onboarding']);
  });

  it('goes to / for a user already onboarded', async () => {
    const adapter = fakeAuthAdapter({ verifyEmail: async () => authResponse() });
    const { actor, notices } = page({ token: 'link-1' }, adapter);
    await settle(actor, 'verified');
    expect(paths(notices)).toEqual(['/']);
  });

  it('waits for the session while signingIn', async () => {
    const session = deferred<void>();
    const { actor } = page({ token: 'link-1' }, fakeAuthAdapter(), () => session.promise);
    await settle(actor, { verifying: 'signingIn' });
    session.resolve();
    await settle(actor, 'verified');
  });

  it('a refused link says why and sends the reader to /auth', async () => {
    const adapter = fakeAuthAdapter({
      verifyEmail: rejects(apiError(400, 'Invalid or expired verification token')),
    });
    const { actor, notices } = page({ token: 'used' }, adapter);
    await settle(actor, 'linkFailed');
    expect(toasts(notices)).toEqual(['error: Invalid or expired verification token']);
    expect(paths(notices)).toEqual(['/auth']);
  });

  it('a refused link without words gets the default', async () => {
    const { actor, notices } = page(
      { token: 'x' },
      fakeAuthAdapter({ verifyEmail: rejects(apiError(500)) }),
    );
    await settle(actor, 'linkFailed');
    expect(toasts(notices)).toEqual([`error: ${AUTH_MESSAGES.verifyLinkFailed}`]);
  });

  it('a session that cannot load the user also ends at /auth', async () => {
    const { actor, notices } = page({ token: 'x' }, fakeAuthAdapter(), () =>
      Promise.reject(new Error('nope')),
    );
    await settle(actor, 'linkFailed');
    expect(paths(notices)).toEqual(['/auth']);
  });
});

describe('verify-email machine: one verification per link', () => {
  it('a page stopped while checking hears nothing, not even the abort', async () => {
    let signal: AbortSignal | undefined;
    const adapter = fakeAuthAdapter({
      verifyEmail: (_, options) => {
        signal = options?.signal;
        return new Promise((_resolve, reject) =>
          options?.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          ),
        );
      },
    });
    const signIn = vi.fn();
    const { actor, notices } = page({ token: 'link-1' }, adapter, signIn);
    actor.stop();
    await flush();
    await flush();
    expect(signal?.aborted).toBe(true);
    expect(notices).toEqual([]);
    expect(signIn).not.toHaveBeenCalled();
  });

  it('a remount joins the verification under way: one call, one sign-in', async () => {
    const answer = deferred<AuthResponse>();
    const adapter = fakeAuthAdapter({ verifyEmail: () => answer.promise });
    const tokens: string[] = [];
    const first = page({ token: 'link-1' }, adapter, (token) => tokens.push(token));
    first.actor.stop();
    const second = page({ token: 'link-1' }, adapter, (token) => tokens.push(token));

    answer.resolve(authResponse({ onboarding_completed: false }));
    await settle(second.actor, 'verified');
    await flush();
    expect(adapter.calls).toEqual([{ method: 'verifyEmail', body: { token: 'link-1' } }]);
    expect(tokens).toEqual([TOKEN]);
    expect(first.notices).toEqual([]);
    expect(paths(second.notices)).toEqual(['/onboarding']);
  });

  it('a link verified earlier on this page is not sent again', async () => {
    const adapter = fakeAuthAdapter();
    const first = page({ token: 'link-1' }, adapter);
    await settle(first.actor, 'verified');
    const again = page({ token: 'link-1' }, adapter);
    await settle(again.actor, 'verified');
    expect(adapter.calls).toHaveLength(1);
    // Another link, or another adapter, is its own verification.
    await settle(page({ token: 'link-2' }, adapter).actor, 'verified');
    await settle(page({ token: 'link-1' }).actor, 'verified');
    expect(adapter.calls).toHaveLength(2);
  });

  it('a refused link is forgotten, so opening it again asks again', async () => {
    const adapter = fakeAuthAdapter({ verifyEmail: rejects(apiError(400, 'Invalid token')) });
    await settle(page({ token: 'used' }, adapter).actor, 'linkFailed');
    await settle(page({ token: 'used' }, adapter).actor, 'linkFailed');
    expect(adapter.calls).toHaveLength(2);
  });

  it('an abandoned verification is aborted and forgotten', async () => {
    const signals: AbortSignal[] = [];
    const adapter = fakeAuthAdapter({
      verifyEmail: (_, options) => {
        if (options?.signal) signals.push(options.signal);
        return never();
      },
    });
    page({ token: 'link-1' }, adapter).actor.stop();
    await flush();
    expect(signals[0]?.aborted).toBe(true);
    page({ token: 'link-1' }, adapter);
    expect(adapter.calls).toHaveLength(2);
    expect(signals[1]?.aborted).toBe(false);
  });
});

describe('verify-email machine: a link of another account than the one signed in', () => {
  const CURRENT = { id: 'user-9', email: 'sam@example.com', display_name: 'Sam' };
  const open = (input: { current?: typeof CURRENT | null; sessionPending?: boolean }) => {
    const tokens: string[] = [];
    const adapter = fakeAuthAdapter();
    const started = start(
      verifyEmailLogic(adapter, { signIn: (token: string) => void tokens.push(token) }),
      { input: { token: 'link-1', ...input } },
    );
    return { ...started, adapter, tokens };
  };

  it('verifies without signing in, and says so with both accounts', async () => {
    const { actor, adapter, notices, tokens } = open({ current: CURRENT });
    await settle(actor, 'verifiedElsewhere');
    expect(adapter.calls).toEqual([{ method: 'verifyEmail', body: { token: 'link-1' } }]);
    expect(actor.getSnapshot().context.current).toEqual(CURRENT);
    expect(actor.getSnapshot().context.verified?.email).toBe('ada@example.org');
    expect(tokens).toEqual([]);
    expect(notices).toEqual([]);
  });

  it('staying signs the link’s own session out and goes to /, the current one untouched', async () => {
    const { actor, adapter, notices, tokens } = open({ current: CURRENT });
    await settle(actor, 'verifiedElsewhere');
    actor.send({ type: 'switch.keep' });
    await settle(actor, 'kept');
    expect(adapter.calls.at(-1)).toEqual({
      method: 'logout',
      body: { refresh_token: authResponse().refresh_token },
    });
    expect(tokens).toEqual([]);
    expect(paths(notices)).toEqual(['/']);
  });

  it('switching signs in to the verified account', async () => {
    const { actor, notices, tokens } = open({ current: CURRENT });
    await settle(actor, 'verifiedElsewhere');
    actor.send({ type: 'switch.confirm' });
    await settle(actor, 'verified');
    expect(tokens).toEqual([TOKEN]);
    expect(paths(notices)).toEqual(['/onboarding']);
  });

  it('the same account signed in: signs in as before', async () => {
    const { actor, tokens } = open({ current: { ...CURRENT, id: 'user-1' } });
    await settle(actor, 'verified');
    expect(tokens).toEqual([TOKEN]);
  });

  it('waits for a loading session before deciding', async () => {
    const { actor, tokens } = open({ sessionPending: true });
    await settle(actor, { verifying: 'deciding' });
    expect(tokens).toEqual([]);
    actor.send({ type: 'session.update', current: CURRENT, pending: false });
    expect(actor.getSnapshot().value).toBe('verifiedElsewhere');
  });
});
