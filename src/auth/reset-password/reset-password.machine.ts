import { assertEvent, assign, emit, fromPromise } from 'xstate';

import { serverMessage } from '../../lib/http-errors';
import { AUTH_MESSAGES, RESET_VERIFY_MESSAGES } from '../../lib/messages';
import { passwordError } from '../../lib/password';
import type { AuthAdapter } from '../auth.adapter';
import { resetPasswordSetup } from './reset-password.setup';

/**
 * The reset-password page (spec section 4, "Password reset"): `idle`, then `submitting`; on success a
 * toast and the way back to /auth.
 */
export const resetPasswordMachine = resetPasswordSetup.createMachine({
  id: 'resetPassword',
  context: ({ input }) => ({ token: input.token?.trim() || null, error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'reset.submit': [
          { guard: 'noToken', actions: assign({ error: AUTH_MESSAGES.resetLinkMissing }) },
          {
            guard: 'weak',
            actions: assign({ error: ({ event }) => passwordError(event.password) }),
          },
          { target: 'submitting', actions: assign({ error: null }) },
        ],
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        src: 'confirmPasswordReset',
        input: ({ context, event }) => {
          assertEvent(event, 'reset.submit');
          return { token: context.token ?? '', new_password: event.password };
        },
        onDone: {
          target: 'done',
          actions: [
            emit({ type: 'notify', tone: 'success', message: RESET_VERIFY_MESSAGES.passwordReset }),
            emit({ type: 'route.navigate', path: '/auth' }),
          ],
        },
        onError: {
          target: 'idle',
          actions: assign({
            error: ({ event }) => serverMessage(event.error, RESET_VERIFY_MESSAGES.resetFailed),
          }),
        },
      },
    },
    done: { type: 'final' },
  },
});

/** The reset-password page's machine over `adapter`. */
export function resetPasswordLogic(adapter: AuthAdapter) {
  return resetPasswordMachine.provide({
    actors: {
      confirmPasswordReset: fromPromise(({ input, signal }) =>
        adapter.confirmPasswordReset(input, { signal }),
      ),
    },
  });
}
