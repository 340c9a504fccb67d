import { assertEvent, assign, emit, fromPromise, setup } from 'xstate';

import { AUTH_MESSAGES, RESET_VERIFY_MESSAGES } from '../../lib/messages';
import { passwordError } from '../../lib/password';
import { stubActor } from '../../lib/stub-actor';
import type { MessageResponse } from '../../wire';
import type { AuthAdapter, ConfirmPasswordResetRequest } from '../auth.adapter';
import { type AuthNotice, serverMessage } from '../notices';

export type ResetPasswordContext = {
  token: string | null;
  /** Why the last attempt was refused: a weak password, a missing link, or the server's words. */
  error: string | null;
};

export type ResetPasswordEvent = { type: 'reset.submit'; password: string };

/**
 * The reset-password page (spec section 4, "Password reset"): `idle`, then `submitting`; on success a
 * toast and the way back to /auth.
 */
export const resetPasswordMachine = setup({
  types: {
    context: {} as ResetPasswordContext,
    events: {} as ResetPasswordEvent,
    input: {} as { token?: string | null | undefined },
    emitted: {} as AuthNotice,
  },
  actors: {
    confirmPasswordReset: stubActor<MessageResponse, ConfirmPasswordResetRequest>(
      'confirmPasswordReset',
    ),
  },
  guards: {
    noToken: ({ context }) => !context.token,
    weak: ({ event }) => {
      assertEvent(event, 'reset.submit');
      return passwordError(event.password) !== null;
    },
  },
}).createMachine({
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
            emit({ type: 'toast.success', message: RESET_VERIFY_MESSAGES.passwordReset }),
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
