import { assign, fromPromise, setup } from 'xstate';
import { CHAT } from '../lib/limits';
import type { ChatAdapter, ChatSession, ChatSessionPage } from './chat.adapter';
import { stubActor } from '../lib/stub-actor';

export type SearchContext = {
  /** What the student typed. */
  query: string;
  /** Matches of the last search, at most 20. */
  results: ChatSession[];
  /** Up to 10 recent chats, shown while the query is blank. */
  recent: ChatSession[];
};

export type SearchEvent = { type: 'search.change'; query: string } | { type: 'search.clear' };

const HOW = 'create the search with searchLogic(adapter)';

const isBlank = (query: string) => query.trim() === '';

/**
 * The search modal: recent chats while the query is blank; typing waits 300 ms after the last key,
 * then searches titles and messages (20 results at most). A blank query clears the results.
 */
export const searchMachine = setup({
  types: {
    context: {} as SearchContext,
    events: {} as SearchEvent,
    tags: {} as 'typing' | 'searching',
  },
  actors: {
    listSessions: stubActor<ChatSessionPage, { limit: number }>('listSessions', HOW),
    search: stubActor<ChatSessionPage, { search: string }>('search', HOW),
  },
  guards: {
    isBlankQuery: ({ event }) => event.type === 'search.clear' || isBlank(event.query),
    hasResults: (_, page: ChatSessionPage) => page.sessions.length > 0,
  },
  actions: {
    setQuery: assign({ query: ({ event }) => (event.type === 'search.change' ? event.query : '') }),
    clearResults: assign({ results: [] }),
    showResults: assign({ results: (_, page: ChatSessionPage) => page.sessions }),
    showRecent: assign({
      recent: (_, page: ChatSessionPage) => page.sessions.slice(0, CHAT.recentChatsInSearch),
    }),
  },
  delays: {
    debounce: CHAT.searchDebounceMs,
  },
}).createMachine({
  id: 'search',
  context: { query: '', results: [], recent: [] },
  // The recent chats load once, whatever the student does meanwhile.
  invoke: {
    src: 'listSessions',
    input: { limit: CHAT.recentChatsInSearch },
    onDone: { actions: { type: 'showRecent', params: ({ event }) => event.output } },
    // Without them the modal still searches.
    onError: {},
  },
  initial: 'idle',
  on: {
    // Each key restarts the wait; a search in flight is abandoned.
    'search.change': [
      { guard: 'isBlankQuery', target: '.idle', actions: ['setQuery', 'clearResults'] },
      { target: '.debouncing', actions: 'setQuery' },
    ],
    'search.clear': { target: '.idle', actions: ['setQuery', 'clearResults'] },
  },
  states: {
    /** Blank query: the recent chats. */
    idle: {},
    debouncing: {
      tags: ['typing'],
      after: { debounce: 'searching' },
    },
    searching: {
      tags: ['typing', 'searching'],
      invoke: {
        src: 'search',
        input: ({ context }) => ({ search: context.query.trim() }),
        onDone: [
          {
            guard: { type: 'hasResults', params: ({ event }) => event.output },
            target: 'results',
            actions: { type: 'showResults', params: ({ event }) => event.output },
          },
          { target: 'noResults', actions: 'clearResults' },
        ],
        onError: { target: 'noResults', actions: 'clearResults' },
      },
    },
    results: {},
    noResults: {},
  },
});

/** The search machine with the adapter's calls, each given its abort `signal`. */
export function searchLogic(adapter: ChatAdapter) {
  return searchMachine.provide({
    actors: {
      listSessions: fromPromise(({ input, signal }) =>
        adapter.listSessions({ limit: input.limit, page: 1 }, { signal }),
      ),
      search: fromPromise(({ input, signal }) =>
        adapter.search({ search: input.search, limit: CHAT.searchLimit, page: 1 }, { signal }),
      ),
    },
  });
}
