import { assign, emit, fromPromise } from 'xstate';

import { SETTINGS_MESSAGES } from '../lib/messages';
import { validateChangePassword } from '../lib/validation';
import { passwordServerError, passwordSetup } from './password.setup';
import type { SettingsAdapter } from './settings.adapter';

/** The Security section's password change: `idle` → `submitting` → `idle` (fields cleared on success). */
export const passwordMachine = passwordSetup.createMachine({
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
