import { setup } from 'xstate';

import { ApiError } from '../lib/http-errors';
import { PROFILE_MESSAGES } from '../lib/messages';
import { stubActor } from '../lib/stub-actor';
import type { MessageResponse } from '../wire';
import type { ChangePasswordRequest } from './settings.adapter';
import type { SettingsNotice } from './settings.notices';
import type { PasswordContext, PasswordEvent } from './settings.types';

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

/** Types, actors (stubs until they are provided), guards and actions of `passwordMachine`. */
export const passwordSetup = setup({
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
});
