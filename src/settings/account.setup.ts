import { setup } from 'xstate';

import { serverMessage } from '../lib/http-errors';
import { SETTINGS_MESSAGES } from '../lib/messages';
import { stubActor } from '../lib/stub-actor';
import type { MessageResponse } from '../wire';
import type { AccountExport, DeleteAccountRequest } from './settings.adapter';
import type { AccountContext, AccountEmitted, AccountEvent } from './settings.types';

const HOW = 'create the machine with accountLogic(adapter)';

export function refusal(error: unknown): string {
  return serverMessage(error, SETTINGS_MESSAGES.deleteAccountFailed);
}

/** Types, actors (stubs until they are provided), guards and actions of `accountMachine`. */
export const accountSetup = setup({
  types: {
    context: {} as AccountContext,
    events: {} as AccountEvent,
    emitted: {} as AccountEmitted,
    tags: {} as 'busy',
  },
  actors: {
    exportData: stubActor<AccountExport, void>('exportData', HOW),
    deleteAccount: stubActor<MessageResponse, DeleteAccountRequest>('deleteAccount', HOW),
  },
});
