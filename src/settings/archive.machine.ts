import { assign, emit, fromPromise, setup } from 'xstate';

import { CHAT } from '../lib/limits';
import { CHAT_MESSAGES } from '../lib/messages';
import { stubActor } from '../lib/stub-actor';
import type { MessageResponse, PageQuery } from '../wire';
import type { ChatSession, ChatSessionPage } from './settings.adapter';
import type { SettingsAdapter } from './settings.adapter';
import type { SettingsNotice } from './settings.notices';

const HOW = 'create the machine with archiveLogic(adapter)';

export type ArchiveContext = {
  sessions: ChatSession[];
  /** The page shown, from 1 (50 a page). */
  page: number;
  hasMore: boolean;
  total: number;
  /** The archived chat being deleted. */
  target: ChatSession | null;
};

export type ArchiveEvent =
  | { type: 'archive.refresh' }
  | { type: 'archive.next' }
  | { type: 'archive.previous' }
  | { type: 'session.unarchive'; sessionId: string }
  | { type: 'session.delete'; sessionId: string }
  | { type: 'all.archive' }
  | { type: 'all.delete' }
  | { type: 'action.confirm' }
  | { type: 'action.cancel' };

type Tone = 'success' | 'error';
const notify = (tone: Tone, message: string) => ({
  type: 'notify' as const,
  params: { tone, message },
});

const byId = (context: ArchiveContext, event: ArchiveEvent) =>
  'sessionId' in event ? (context.sessions.find((s) => s.id === event.sessionId) ?? null) : null;

/** A confirmed action: `confirming` (the dialog), then `running`; toasts for both outcomes. */
function confirmed(
  src: 'deleteArchivedSession' | 'archiveAll' | 'deleteAll',
  ok: string,
  fail: string,
) {
  return {
    initial: 'confirming' as const,
    states: {
      confirming: {
        on: { 'action.confirm': 'running', 'action.cancel': '#archive.action.idle' },
      },
      running: {
        tags: ['busy' as const],
        invoke: {
          src,
          input: ({ context }: { context: ArchiveContext }) => ({
            sessionId: context.target?.id ?? '',
          }),
          onDone: {
            target: '#archive.action.idle',
            actions: [notify('success', ok), 'changed' as const, 'reload' as const],
          },
          onError: { target: '#archive.action.idle', actions: notify('error', fail) },
        },
      },
    },
  };
}

/**
 * Data Controls (spec section 2, "Settings"): the archived chats, 50 a page, with unarchive and
 * delete; archive all and delete all, each after a confirmation. Two regions: the list and the action.
 */
export const archiveMachine = setup({
  types: {
    context: {} as ArchiveContext,
    events: {} as ArchiveEvent,
    emitted: {} as SettingsNotice,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    listArchived: stubActor<ChatSessionPage, PageQuery>('listArchived', HOW),
    unarchiveSession: stubActor<ChatSession, { sessionId: string }>('unarchiveSession', HOW),
    deleteArchivedSession: stubActor<MessageResponse, { sessionId: string }>(
      'deleteArchivedSession',
      HOW,
    ),
    archiveAll: stubActor<MessageResponse, { sessionId: string }>('archiveAll', HOW),
    deleteAll: stubActor<MessageResponse, { sessionId: string }>('deleteAll', HOW),
  },
  actions: {
    notify: emit((_, params: { tone: Tone; message: string }) => ({
      type: 'notify' as const,
      ...params,
    })),
    changed: emit({ type: 'chats.changed' }),
    reload: ({ self }) => self.send({ type: 'archive.refresh' }),
  },
}).createMachine({
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
