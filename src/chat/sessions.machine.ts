import { fromPromise } from 'xstate';

import type { ChatAdapter } from './chat.adapter';
import { sessionsSetup } from './sessions.setup';

/**
 * The saved chats of the sidebar. Two regions run side by side: the list (loading, reloaded on the
 * 'refresh-chat-history' event) and the action on one chat (rename, archive, delete with confirm).
 */
export const sessionsMachine = sessionsSetup.createMachine({
  id: 'sessions',
  context: { sessions: [], target: null },
  type: 'parallel',
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            src: 'listSessions',
            onDone: {
              target: 'loaded',
              actions: { type: 'showSessions', params: ({ event }) => event.output },
            },
            // A failed list is an empty one.
            onError: { target: 'loaded', actions: 'clearSessions' },
          },
          on: { 'sessions.refresh': { target: 'loading', reenter: true } },
        },
        loaded: {
          on: { 'sessions.refresh': 'loading' },
        },
      },
    },
    action: {
      initial: 'idle',
      states: {
        idle: {
          entry: 'clearTarget',
          on: {
            'session.rename': { guard: 'isKnownSession', target: 'renaming', actions: 'setTarget' },
            'session.archive': {
              guard: 'isKnownSession',
              target: 'archiving',
              actions: 'setTarget',
            },
            'session.delete': { guard: 'isKnownSession', target: 'deleting', actions: 'setTarget' },
            'session.unarchive': 'unarchiving',
          },
        },
        /** Undoing an archive: the chat comes back and the list reloads. */
        unarchiving: {
          tags: ['busy'],
          invoke: {
            src: 'unarchiveSession',
            input: ({ event }) => ({
              sessionId: event.type === 'session.unarchive' ? event.sessionId : '',
            }),
            onDone: { target: 'idle', actions: ['notifyUnarchived', 'refreshList'] },
            onError: { target: 'idle', actions: 'notifyUnarchiveFailed' },
          },
        },
        renaming: {
          initial: 'editing',
          states: {
            /** The rename dialog is open. */
            editing: {
              on: {
                'rename.save': [
                  { guard: 'isUnchangedTitle', target: '#sessions.action.idle' },
                  { guard: 'isValidTitle', target: 'saving' },
                ],
                'rename.cancel': '#sessions.action.idle',
              },
            },
            saving: {
              tags: ['busy'],
              invoke: {
                src: 'renameSession',
                input: ({ context, event }) => ({
                  sessionId: context.target?.id ?? '',
                  title: event.type === 'rename.save' ? event.title.trim() : '',
                }),
                onDone: {
                  target: '#sessions.action.idle',
                  actions: [
                    { type: 'replaceSession', params: ({ event }) => event.output },
                    'notifyRenamed',
                  ],
                },
                // The dialog stays open with the name typed, to try again or cancel.
                onError: { target: 'editing', actions: 'notifyRenameFailed' },
              },
            },
          },
        },
        archiving: {
          tags: ['busy'],
          invoke: {
            src: 'archiveSession',
            input: ({ context }) => ({ sessionId: context.target?.id ?? '' }),
            onDone: {
              target: 'idle',
              actions: ['removeTarget', 'announceRemoved', 'notifyArchived'],
            },
            onError: { target: 'idle', actions: 'notifyArchiveFailed' },
          },
        },
        deleting: {
          initial: 'confirming',
          states: {
            /** 'Delete chat?': the confirmation dialog. */
            confirming: {
              on: {
                'delete.confirm': 'removing',
                'delete.cancel': '#sessions.action.idle',
              },
            },
            removing: {
              tags: ['busy'],
              invoke: {
                src: 'deleteSession',
                input: ({ context }) => ({ sessionId: context.target?.id ?? '' }),
                onDone: {
                  target: '#sessions.action.idle',
                  actions: ['removeTarget', 'announceRemoved', 'notifyDeleted'],
                },
                onError: { target: '#sessions.action.idle', actions: 'notifyDeleteFailed' },
              },
            },
          },
        },
      },
    },
  },
});

/** The session list machine with the adapter's calls, each given its abort `signal`. */
export function sessionsLogic(adapter: ChatAdapter) {
  return sessionsMachine.provide({
    actors: {
      listSessions: fromPromise(({ signal }) => adapter.listSessions({}, { signal })),
      renameSession: fromPromise(({ input, signal }) =>
        adapter.renameSession(input.sessionId, { title: input.title }, { signal }),
      ),
      archiveSession: fromPromise(({ input, signal }) =>
        adapter.archiveSession(input.sessionId, { signal }),
      ),
      unarchiveSession: fromPromise(({ input, signal }) =>
        adapter.unarchiveSession(input.sessionId, { signal }),
      ),
      deleteSession: fromPromise(({ input, signal }) =>
        adapter.deleteSession(input.sessionId, { signal }),
      ),
    },
  });
}
