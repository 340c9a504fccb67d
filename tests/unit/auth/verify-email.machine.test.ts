import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyEmailLogic } from '../../../src/auth/verify-email.machine';
import {
  apiError,
  authResponse,
  deferred,
  fakeAuthAdapter,
  rejects,
  TOKEN,
} from '../../fakes/auth';
import { paths, settle, start, toasts } from './support';

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
    expect(toasts(notices)).toEqual(['error: This verification link is invalid or has expired.']);
  });

  it('a session that cannot load the user also ends at /auth', async () => {
    const { actor, notices } = page({ token: 'x' }, fakeAuthAdapter(), () =>
      Promise.reject(new Error('nope')),
    );
    await settle(actor, 'linkFailed');
    expect(paths(notices)).toEqual(['/auth']);
  });
});
