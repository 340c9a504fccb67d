import { assign, emit, fromCallback, setup } from 'xstate';

import { CHAT } from '../lib/limits';
import { CHAT_MESSAGES } from '../lib/messages';
import { stubActor } from '../lib/stub-actor';
import type { ChatSearchPage, ChatSessionPage } from './chat.adapter';
import type { SearchContext, SearchEmitted, SearchEvent } from './chat.types';

const HOW = 'create the search with searchLogic(adapter)';

const isBlank = (query: string) => query.trim() === '';

/** Types, actors (stubs until they are provided), guards and actions of `searchMachine`. */
export const searchSetup = setup({
  types: {
    context: {} as SearchContext,
    events: {} as SearchEvent,
    emitted: {} as SearchEmitted,
    tags: {} as 'typing' | 'searching',
  },
  actors: {
    listSessions: stubActor<ChatSessionPage, { limit: number }>('listSessions', HOW),
    search: stubActor<ChatSearchPage, { search: string }>('search', HOW),
    // A callback actor: it reports back which session it was for, several may run at once.
    unarchiveSession: fromCallback<SearchEvent, { sessionId: string }>(() => {
      throw new Error(`unarchiveSession must be provided: ${HOW}`);
    }),
  },
  guards: {
    isBlankQuery: ({ event }) =>
      event.type === 'search.clear' || (event.type === 'search.change' && isBlank(event.query)),
    hasResults: (_, page: ChatSearchPage) => page.sessions.length > 0,
    isArchivedResult: ({ context, event }) =>
      event.type === 'result.unarchive' &&
      !context.unarchiving.includes(event.sessionId) &&
      context.results.some((r) => r.id === event.sessionId && r.archived),
  },
  actions: {
    setQuery: assign({ query: ({ event }) => (event.type === 'search.change' ? event.query : '') }),
    clearResults: assign({ results: [] }),
    showResults: assign({ results: (_, page: ChatSearchPage) => page.sessions }),
    startUnarchive: assign({
      unarchiving: ({ context, event }) =>
        event.type === 'result.unarchive'
          ? [...context.unarchiving, event.sessionId]
          : context.unarchiving,
    }),
    markUnarchived: assign(({ context, event }) => {
      const id = 'sessionId' in event ? event.sessionId : '';
      return {
        unarchiving: context.unarchiving.filter((u) => u !== id),
        results:
          event.type === 'result.unarchived'
            ? context.results.map((r) => (r.id === id ? { ...r, archived: false } : r))
            : context.results,
      };
    }),
    notifyUnarchived: emit({ type: 'notify', tone: 'success', message: CHAT_MESSAGES.unarchived }),
    announceUnarchived: emit(({ event }) => ({
      type: 'session.unarchived' as const,
      sessionId: 'sessionId' in event ? event.sessionId : '',
    })),
    notifyUnarchiveFailed: emit({
      type: 'notify',
      tone: 'error',
      message: CHAT_MESSAGES.unarchiveFailed,
    }),
    showRecent: assign({
      recent: (_, page: ChatSessionPage) => page.sessions.slice(0, CHAT.recentChatsInSearch),
    }),
  },
  delays: {
    debounce: CHAT.searchDebounceMs,
  },
});
