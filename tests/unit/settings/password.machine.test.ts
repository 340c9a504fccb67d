import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';

import { apiError, deferred, fakeSettingsAdapter } from '../../../fakes/settings';
import { passwordLogic, passwordMachine } from '../../../src/settings/password.machine';
import { passwordServerError } from '../../../src/settings/password.setup';
import type { SettingsNotice } from '../../../src/settings/settings.notices';
import type { MessageResponse } from '../../../src/wire';

const STRONG = 'Str0ng!pass';
const OTHER = 'An0ther!pass';

function start(adapter = fakeSettingsAdapter()) {
  const actor = createActor(passwordLogic(adapter));
  const notices: SettingsNotice[] = [];
  let changed = 0;
  actor.on('*', (notice) => {
    if (notice.type === 'password.changed') changed++;
    else notices.push(notice as SettingsNotice);
  });
  actor.start();
  const toasts = () =>
    notices.flatMap((n) => (n.type === 'notify' ? [`${n.tone}: ${n.message}`] : []));
  return { actor, adapter, toasts, changed: () => changed };
}

const submit = (current: string, next: string, confirm: string) =>
  ({ type: 'password.submit', current, next, confirm }) as const;

describe('password machine: the four messages of spec section 5', () => {
  it.each([
    ['', STRONG, STRONG, 'Please fill in all password fields'],
    [OTHER, STRONG, '', 'Please fill in all password fields'],
    [OTHER, STRONG, `${STRONG}x`, 'New passwords do not match'],
    [
      OTHER,
      'weakpass',
      'weakpass',
      'Password does not meet requirements: At least one uppercase letter, At least one number, At least one special character',
    ],
    [STRONG, STRONG, STRONG, 'New password must be different from current password'],
  ])('(%j, %j, %j) → %s, with no call', (current, next, confirm, message) => {
    const { actor, adapter } = start();
    actor.send(submit(current, next, confirm));
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toBe(message);
    expect(adapter.calls).toEqual([]);
  });
});

describe('password machine', () => {
  it('fails loudly without an adapter', async () => {
    const actor = createActor(passwordMachine).start();
    actor.send(submit(OTHER, STRONG, STRONG));
    await waitFor(actor, (s) => s.matches('idle') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(
      'Authentication failed. Please try logging in again.',
    );
  });

  it('submits: idle → submitting (busy) → idle, fields cleared, a success toast', async () => {
    const answer = deferred<MessageResponse>();
    const { actor, adapter, toasts, changed } = start(
      fakeSettingsAdapter({ changePassword: () => answer.promise }),
    );
    actor.send(submit('wrong', 'weak', 'weak'));
    actor.send(submit(OTHER, STRONG, STRONG));
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(adapter.calls).toEqual([
      { method: 'changePassword', args: [{ current_password: OTHER, new_password: STRONG }] },
    ]);
    actor.send(submit(OTHER, STRONG, STRONG));
    expect(adapter.calls).toHaveLength(1);
    answer.resolve({ message: 'ok' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(changed()).toBe(1);
    expect(toasts()).toEqual(['success: Password changed successfully!']);
  });

  it.each([
    [apiError(400, 'Current password is incorrect'), 'Current password is incorrect'],
    [apiError(400), 'Current password is incorrect'],
    [
      apiError(422, [{ loc: ['body', 'new_password'], msg: 'weak', type: 'value_error' }]),
      'New password does not meet security requirements. Please choose a stronger password.',
    ],
    [apiError(401), 'Authentication failed. Please try logging in again.'],
    [apiError(403, 'Google account'), 'Authentication failed. Please try logging in again.'],
    [apiError(500), 'Server error. Please try again later.'],
    [new TypeError('offline'), 'Authentication failed. Please try logging in again.'],
  ])('a refusal (%s) reads %j, in the form and as a toast', async (error, message) => {
    expect(passwordServerError(error)).toBe(message);
    const { actor, toasts, changed } = start(
      fakeSettingsAdapter({ changePassword: () => Promise.reject(error) }),
    );
    actor.send(submit(OTHER, STRONG, STRONG));
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.error).toBe(message);
    expect(toasts()).toEqual([`error: ${message}`]);
    expect(changed()).toBe(0);
  });
});
