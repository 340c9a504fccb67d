import { emit, setup } from 'xstate';

import { stubActor } from '../lib/stub-actor';
import type { MessageResponse, PageQuery } from '../wire';
import type { ChatSession, ChatSessionPage } from './settings.adapter';
import type { SettingsNotice } from './settings.notices';
import type { ArchiveContext, ArchiveEvent } from './settings.types';

const HOW = 'create the machine with archiveLogic(adapter)';

type Tone = 'success' | 'error';
export const notify = (tone: Tone, message: string) => ({
  type: 'notify' as const,
  params: { tone, message },
});

export const byId = (context: ArchiveContext, event: ArchiveEvent) =>
  'sessionId' in event ? (context.sessions.find((s) => s.id === event.sessionId) ?? null) : null;

/** A confirmed action: `confirming` (the dialog), then `running`; toasts for both outcomes. */
export function confirmed(
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

/** Types, actors (stubs until they are provided), guards and actions of `archiveMachine`. */
export const archiveSetup = setup({
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
});
