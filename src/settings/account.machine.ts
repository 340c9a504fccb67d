import { assign, emit, fromPromise, setup } from 'xstate';

import { ApiError } from '../lib/http-errors';
import { SETTINGS_MESSAGES } from '../lib/messages';
import { stubActor } from '../lib/stub-actor';
import type { MessageResponse } from '../wire';
import type { AccountExport, DeleteAccountRequest, SettingsAdapter } from './settings.adapter';
import type { SettingsNotice } from './settings.notices';

const HOW = 'create the machine with accountLogic(adapter)';

export type AccountContext = { error: string | null };

export type AccountEvent =
  | { type: 'export.start' }
  | { type: 'delete.start' }
  | { type: 'delete.confirm'; body: DeleteAccountRequest }
  | { type: 'delete.cancel' };

export type AccountEmitted =
  | SettingsNotice
  /** The export arrived: the component saves it as a file. */
  | { type: 'export.ready'; data: AccountExport }
  /** The account is gone: the host signs out. */
  | { type: 'account.deleted' };

function refusal(error: unknown): string {
  if (error instanceof ApiError && typeof error.detail === 'string' && error.detail.trim())
    return error.detail.trim();
  return SETTINGS_MESSAGES.deleteAccountFailed;
}

/**
 * Beyond the spec, for children's accounts: "Export my data" (one JSON file) and "Delete my
 * account" after a confirmation (the email typed, a display name, or a wallet signature).
 */
export const accountMachine = setup({
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
}).createMachine({
  id: 'account',
  context: { error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'export.start': 'exporting',
        'delete.start': { target: 'confirmingDelete', actions: assign({ error: null }) },
      },
    },
    exporting: {
      tags: ['busy'],
      invoke: {
        src: 'exportData',
        onDone: {
          target: 'idle',
          actions: [
            emit(({ event }) => ({ type: 'export.ready' as const, data: event.output })),
            emit({ type: 'notify', tone: 'success', message: SETTINGS_MESSAGES.exported }),
          ],
        },
        onError: {
          target: 'idle',
          actions: emit({ type: 'notify', tone: 'error', message: SETTINGS_MESSAGES.exportFailed }),
        },
      },
    },
    confirmingDelete: {
      on: {
        'delete.confirm': { target: 'deleting', actions: assign({ error: null }) },
        'delete.cancel': 'idle',
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        src: 'deleteAccount',
        input: ({ event }) => (event.type === 'delete.confirm' ? event.body : { confirm: '' }),
        onDone: {
          target: 'deleted',
          actions: [
            emit({ type: 'notify', tone: 'success', message: SETTINGS_MESSAGES.accountDeleted }),
            emit({ type: 'account.deleted' }),
          ],
        },
        onError: {
          target: 'confirmingDelete',
          actions: assign({ error: ({ event }) => refusal(event.error) }),
        },
      },
    },
    deleted: { type: 'final' },
  },
});

/** Export and deletion over `adapter`. */
export function accountLogic(adapter: SettingsAdapter) {
  return accountMachine.provide({
    actors: {
      exportData: fromPromise(({ signal }) => adapter.exportData({ signal })),
      deleteAccount: fromPromise(({ input, signal }) => adapter.deleteAccount(input, { signal })),
    },
  });
}
