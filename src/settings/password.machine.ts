import { assign, emit, fromPromise, setup } from 'xstate';

import { ApiError } from '../lib/http-errors';
import { PROFILE_MESSAGES, SETTINGS_MESSAGES } from '../lib/messages';
import { stubActor } from '../lib/stub-actor';
import { type ChangePasswordFields, validateChangePassword } from '../lib/validation';
import type { MessageResponse } from '../wire';
import type { ChangePasswordRequest, SettingsAdapter } from './settings.adapter';
import type { SettingsNotice } from './settings.notices';

export type PasswordContext = {
  /** Why the last attempt was refused: a rule of section 5 or a server error of section 8. */
  error: string | null;
};

export type PasswordEvent = { type: 'password.submit' } & ChangePasswordFields;

/** A refused change in the words of spec section 8. */
export function passwordServerError(error: unknown): string {
  if (!(error instanceof ApiError)) return PROFILE_MESSAGES.authFailed;
  if (error.status === 400)
    return typeof error.detail === 'string' && error.detail.trim()
      ? error.detail.trim()
      : PROFILE_MESSAGES.currentPasswordIncorrect;
  if (error.status === 422) return PROFILE_MESSAGES.weakNewPassword;
  if (error.status === 401 || error.status === 403) return PROFILE_MESSAGES.authFailed;
  return error.message;
}

/** The Security section's password change: `idle` → `submitting` → `idle` (fields cleared on success). */
export const passwordMachine = setup({
  types: {
    context: {} as PasswordContext,
    events: {} as PasswordEvent,
    emitted: {} as SettingsNotice | { type: 'password.changed' },
    tags: {} as 'busy',
  },
  actors: {
    changePassword: stubActor<MessageResponse, ChangePasswordRequest>(
      'changePassword',
      'create the machine with passwordLogic(adapter)',
    ),
  },
}).createMachine({
  id: 'password',
  context: { error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'password.submit': [
          {
            guard: ({ event }) => validateChangePassword(event) !== null,
            actions: assign({ error: ({ event }) => validateChangePassword(event) }),
          },
          { target: 'submitting', actions: assign({ error: null }) },
        ],
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        src: 'changePassword',
        input: ({ event }) =>
          event.type === 'password.submit'
            ? { current_password: event.current, new_password: event.next }
            : { current_password: '', new_password: '' },
        onDone: {
          target: 'idle',
          actions: [
            emit({ type: 'password.changed' }),
            emit({ type: 'notify', tone: 'success', message: SETTINGS_MESSAGES.passwordChanged }),
          ],
        },
        onError: {
          target: 'idle',
          actions: [
            assign({ error: ({ event }) => passwordServerError(event.error) }),
            emit(({ event }) => ({
              type: 'notify' as const,
              tone: 'error' as const,
              message: passwordServerError(event.error),
            })),
          ],
        },
      },
    },
  },
});

/** The password change over `adapter`. */
export function passwordLogic(adapter: SettingsAdapter) {
  return passwordMachine.provide({
    actors: {
      changePassword: fromPromise(({ input, signal }) => adapter.changePassword(input, { signal })),
    },
  });
}
