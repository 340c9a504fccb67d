import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';

import { apiError, deferred, fakeAuthAdapter, rejects } from '../../../fakes/auth';
import {
  resetPasswordLogic,
  resetPasswordMachine,
} from '../../../src/auth/reset-password/reset-password.machine';
import { AUTH_MESSAGES } from '../../../src/lib/messages';
import { paths, settle, start, toasts } from './support';

const STRONG = 'N3w!password';

function page(token: string | null = 'reset-1', adapter = fakeAuthAdapter()) {
  return { ...start(resetPasswordLogic(adapter), { input: { token } }), adapter };
}

describe('reset-password machine', () => {
  it('idle → submitting → done, with the success toast and the way back to /auth', async () => {
    const confirm = deferred<{ message: string }>();
    const { actor, adapter, notices } = page(
      'reset-1',
      fakeAuthAdapter({ confirmPasswordReset: () => confirm.promise }),
    );
    expect(actor.getSnapshot().value).toBe('idle');

    actor.send({ type: 'reset.submit', password: STRONG });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can({ type: 'reset.submit', password: STRONG })).toBe(false);
    expect(adapter.calls).toEqual([
      { method: 'confirmPasswordReset', body: { token: 'reset-1', new_password: STRONG } },
    ]);

    confirm.resolve({ message: 'ok' });
    await settle(actor, 'done');
    expect(toasts(notices)).toEqual(['success: Password reset successfully!']);
    expect(paths(notices)).toEqual(['/auth']);
  });

  it('refuses a weak password with the section 5 message, without calling', () => {
    const { actor, adapter } = page();
    actor.send({ type: 'reset.submit', password: 'short' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toBe(
      'Password does not meet requirements: At least 8 characters, At least one uppercase letter, At least one number, At least one special character',
    );
    expect(adapter.calls).toEqual([]);
  });

  it('refuses without a token', () => {
    const { actor, adapter } = page(null);
    actor.send({ type: 'reset.submit', password: STRONG });
    expect(actor.getSnapshot().context.error).toBe(AUTH_MESSAGES.resetLinkMissing);
    expect(adapter.calls).toEqual([]);
  });

  it('a failure returns to idle with the default, or the server words', async () => {
    const plain = page('t', fakeAuthAdapter({ confirmPasswordReset: rejects(apiError(500)) }));
    plain.actor.send({ type: 'reset.submit', password: STRONG });
    await settle(plain.actor, 'idle');
    expect(plain.actor.getSnapshot().context.error).toBe('Failed to reset password.');

    const worded = page(
      't',
      fakeAuthAdapter({
        confirmPasswordReset: rejects(apiError(400, 'Invalid or expired reset token')),
      }),
    );
    worded.actor.send({ type: 'reset.submit', password: STRONG });
    await settle(worded.actor, 'idle');
    expect(worded.actor.getSnapshot().context.error).toBe('Invalid or expired reset token');
    expect(worded.notices).toEqual([]);
  });

  it('fails loudly without its adapter', async () => {
    const actor = createActor(resetPasswordMachine, { input: { token: 't' } }).start();
    actor.send({ type: 'reset.submit', password: STRONG });
    await settle(actor, 'idle');
    expect(actor.getSnapshot().context.error).toBe('Failed to reset password.');
  });
});
