import { assign, emit, raise, setup } from 'xstate';

import { CHAT } from '../lib/limits';
import { CHAT_MESSAGES } from '../lib/messages';
import { stubActor } from '../lib/stub-actor';
import type { ChatSession, ChatSessionPage } from './chat.adapter';
import type { SessionsContext, SessionsEmitted, SessionsEvent } from './chat.types';

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

/** Types, actors (stubs until they are provided), guards and actions of `sessionsMachine`. */
export const sessionsSetup = setup({
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
});
