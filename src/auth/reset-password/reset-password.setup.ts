import { assertEvent, setup } from 'xstate';

import { passwordError } from '../../lib/password';
import { stubActor } from '../../lib/stub-actor';
import type { MessageResponse } from '../../wire';
import type { ConfirmPasswordResetRequest } from '../auth.adapter';
import { type AuthNotice } from '../auth.notices';
import type { ResetPasswordContext, ResetPasswordEvent } from '../auth.types';

/** Types, actors (stubs until they are provided), guards and actions of `resetPasswordMachine`. */
export const resetPasswordSetup = setup({
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
});
