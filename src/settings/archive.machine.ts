import { assign, fromPromise } from 'xstate';

import { CHAT } from '../lib/limits';
import { CHAT_MESSAGES } from '../lib/messages';
import { archiveSetup, byId, confirmed, notify } from './archive.setup';
import type { SettingsAdapter } from './settings.adapter';

/**
 * Data Controls (spec section 2, "Settings"): the archived chats, 50 a page, with unarchive and
 * delete; archive all and delete all, each after a confirmation. Two regions: the list and the action.
 */
export const archiveMachine = archiveSetup.createMachine({
  id: 'archive',
  type: 'parallel',
  context: { sessions: [], page: 1, hasMore: false, total: 0, target: null },
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            src: 'listArchived',
            input: ({ context }) => ({ limit: CHAT.archivedPageSize, page: context.page }),
            onDone: {
              target: 'loaded',
              actions: assign(({ event }) => ({
                sessions: event.output.sessions,
                hasMore: event.output.hasMore,
                total: event.output.total,
              })),
            },
            onError: 'failed',
          },
          on: { 'archive.refresh': { target: 'loading', reenter: true } },
        },
        loaded: {
          always: {
            // A page emptied by the last action: show the one before it.
            guard: ({ context }) => context.sessions.length === 0 && context.page > 1,
            target: 'loading',
            actions: assign({ page: ({ context }) => context.page - 1 }),
          },
          on: {
            'archive.refresh': 'loading',
            'archive.next': {
              guard: ({ context }) => context.hasMore,
              target: 'loading',
              actions: assign({ page: ({ context }) => context.page + 1 }),
            },
            'archive.previous': {
              guard: ({ context }) => context.page > 1,
              target: 'loading',
              actions: assign({ page: ({ context }) => context.page - 1 }),
            },
          },
        },
        failed: { on: { 'archive.refresh': 'loading' } },
      },
    },
    action: {
      initial: 'idle',
      states: {
        idle: {
          entry: assign({ target: null }),
          on: {
            'session.unarchive': {
              guard: ({ context, event }) => byId(context, event) !== null,
              target: 'unarchiving',
              actions: assign({ target: ({ context, event }) => byId(context, event) }),
            },
            'session.delete': {
              guard: ({ context, event }) => byId(context, event) !== null,
              target: 'deleting',
              actions: assign({ target: ({ context, event }) => byId(context, event) }),
            },
            'all.archive': 'archivingAll',
            'all.delete': 'deletingAll',
          },
        },
        unarchiving: {
          tags: ['busy'],
          invoke: {
            src: 'unarchiveSession',
            input: ({ context }) => ({ sessionId: context.target?.id ?? '' }),
            onDone: {
              target: 'idle',
              actions: [notify('success', CHAT_MESSAGES.unarchived), 'changed', 'reload'],
            },
            onError: { target: 'idle', actions: notify('error', CHAT_MESSAGES.unarchiveFailed) },
          },
        },
        deleting: confirmed(
          'deleteArchivedSession',
          CHAT_MESSAGES.deleted,
          CHAT_MESSAGES.deleteFailed,
        ),
        archivingAll: confirmed(
          'archiveAll',
          CHAT_MESSAGES.allArchived,
          CHAT_MESSAGES.archiveAllFailed,
        ),
        deletingAll: confirmed(
          'deleteAll',
          CHAT_MESSAGES.allDeleted,
          CHAT_MESSAGES.deleteAllFailed,
        ),
      },
    },
  },
});

/** Data Controls over `adapter`'s archive calls. */
export function archiveLogic(adapter: SettingsAdapter) {
  return archiveMachine.provide({
    actors: {
      listArchived: fromPromise(({ input, signal }) => adapter.listArchived(input, { signal })),
      unarchiveSession: fromPromise(({ input, signal }) =>
        adapter.unarchiveSession(input.sessionId, { signal }),
      ),
      deleteArchivedSession: fromPromise(({ input, signal }) =>
        adapter.deleteArchivedSession(input.sessionId, { signal }),
      ),
      archiveAll: fromPromise(({ signal }) => adapter.archiveAll({ signal })),
      deleteAll: fromPromise(({ signal }) => adapter.deleteAll({ signal })),
    },
  });
}
