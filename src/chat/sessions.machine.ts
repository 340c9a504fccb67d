import { assign, emit, fromPromise, raise, setup } from 'xstate';

import { CHAT } from '../lib/limits';
import { CHAT_MESSAGES } from '../lib/messages';
import { stubActor } from '../lib/stub-actor';
import type { ChatAdapter, ChatSession, ChatSessionPage } from './chat.adapter';

export type SessionsContext = {
  /** Active sessions, newest activity first; empty when the list failed to load. */
  sessions: ChatSession[];
  /** The session being renamed or deleted. */
  target: ChatSession | null;
};

export type SessionsEvent =
  | { type: 'sessions.refresh' }
  | { type: 'session.rename'; sessionId: string }
  | { type: 'rename.save'; title: string }
  | { type: 'rename.cancel' }
  | { type: 'session.archive'; sessionId: string }
  /** Undo of an archive (its toast's button). */
  | { type: 'session.unarchive'; sessionId: string }
  | { type: 'session.delete'; sessionId: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' };

export type SessionsEmitted =
  /** `undo`: the session whose archive the toast may undo. */
  | { type: 'notify'; tone: 'success' | 'error'; message: string; undo?: string }
  /** A session left the list (archived or deleted): a chat showing it should start over. */
  | { type: 'session.removed'; sessionId: string };

const HOW = 'create the list with sessionsLogic(adapter)';

/** A rename is saved only when it is 1–100 characters after trimming. */
export function isValidTitle(title: string): boolean {
  const trimmed = title.trim();
  return trimmed.length > 0 && trimmed.length <= CHAT.renameMaxLength;
}

function sessionNamed(context: SessionsContext, event: SessionsEvent): ChatSession | null {
  if (!('sessionId' in event)) return null;
  return context.sessions.find((s) => s.id === event.sessionId) ?? null;
}

/**
 * The saved chats of the sidebar. Two regions run side by side: the list (loading, reloaded on the
 * 'refresh-chat-history' event) and the action on one chat (rename, archive, delete with confirm).
 */
export const sessionsMachine = setup({
  types: {
    context: {} as SessionsContext,
    events: {} as SessionsEvent,
    emitted: {} as SessionsEmitted,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    listSessions: stubActor<ChatSessionPage, void>('listSessions', HOW),
    renameSession: stubActor<ChatSession, { sessionId: string; title: string }>(
      'renameSession',
      HOW,
    ),
    archiveSession: stubActor<ChatSession, { sessionId: string }>('archiveSession', HOW),
    unarchiveSession: stubActor<ChatSession, { sessionId: string }>('unarchiveSession', HOW),
    deleteSession: stubActor<unknown, { sessionId: string }>('deleteSession', HOW),
  },
  guards: {
    isKnownSession: ({ context, event }) => sessionNamed(context, event) !== null,
    isValidTitle: ({ event }) => event.type === 'rename.save' && isValidTitle(event.title),
    isUnchangedTitle: ({ context, event }) =>
      event.type === 'rename.save' && event.title.trim() === context.target?.title,
  },
  actions: {
    setTarget: assign({ target: ({ context, event }) => sessionNamed(context, event) }),
    clearTarget: assign({ target: null }),
    showSessions: assign({ sessions: (_, page: ChatSessionPage) => page.sessions }),
    clearSessions: assign({ sessions: [] }),
    refreshList: raise({ type: 'sessions.refresh' }),
    replaceSession: assign({
      sessions: ({ context }, renamed: ChatSession) =>
        context.sessions.map((s) => (s.id === renamed.id ? { ...s, title: renamed.title } : s)),
    }),
    removeTarget: assign({
      sessions: ({ context }) => context.sessions.filter((s) => s.id !== context.target?.id),
    }),
    announceRemoved: emit(({ context }) => ({
      type: 'session.removed' as const,
      sessionId: context.target?.id ?? '',
    })),
    notifyRenamed: emit({ type: 'notify', tone: 'success', message: CHAT_MESSAGES.renamed }),
    notifyRenameFailed: emit({
      type: 'notify',
      tone: 'error',
      message: CHAT_MESSAGES.renameFailed,
    }),
    notifyArchived: emit(({ context }) => ({
      type: 'notify' as const,
      tone: 'success' as const,
      message: CHAT_MESSAGES.archived,
      undo: context.target?.id ?? '',
    })),
    notifyUnarchived: emit({
      type: 'notify',
      tone: 'success',
      message: CHAT_MESSAGES.unarchived,
    }),
    notifyUnarchiveFailed: emit({
      type: 'notify',
      tone: 'error',
      message: CHAT_MESSAGES.unarchiveFailed,
    }),
    notifyArchiveFailed: emit({
      type: 'notify',
      tone: 'error',
      message: CHAT_MESSAGES.archiveFailed,
    }),
    notifyDeleted: emit({ type: 'notify', tone: 'success', message: CHAT_MESSAGES.deleted }),
    notifyDeleteFailed: emit({
      type: 'notify',
      tone: 'error',
      message: CHAT_MESSAGES.deleteFailed,
    }),
  },
}).createMachine({
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
