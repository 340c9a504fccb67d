import { assign, emit, fromPromise } from 'xstate';

import { SETTINGS_MESSAGES } from '../lib/messages';
import { accountSetup, refusal } from './account.setup';
import type { SettingsAdapter } from './settings.adapter';

/**
 * Beyond the spec, for children's accounts: "Export my data" (one JSON file) and "Delete my
 * account" after a confirmation (the email typed, a display name, or a wallet signature).
 */
export const accountMachine = accountSetup.createMachine({
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
