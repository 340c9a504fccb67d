import { fromCallback, fromPromise, spawnChild } from 'xstate';

import { CHAT } from '../lib/limits';
import type { ChatAdapter } from './chat.adapter';
import type { SearchEvent } from './chat.types';
import { searchSetup } from './search.setup';

/**
 * The search modal: recent chats while the query is blank; typing waits 300 ms after the last key,
 * then searches titles and messages (20 results at most). A blank query clears the results.
 */
export const searchMachine = searchSetup.createMachine({
  id: 'search',
  context: { query: '', results: [], recent: [], unarchiving: [] },
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
    // An archived match brought back where it was found; the search goes on meanwhile.
    'result.unarchive': {
      guard: 'isArchivedResult',
      actions: [
        'startUnarchive',
        spawnChild('unarchiveSession', {
          input: ({ event }) => ({
            sessionId: event.type === 'result.unarchive' ? event.sessionId : '',
          }),
        }),
      ],
    },
    'result.unarchived': {
      actions: ['markUnarchived', 'notifyUnarchived', 'announceUnarchived'],
    },
    'result.unarchiveFailed': { actions: ['markUnarchived', 'notifyUnarchiveFailed'] },
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
      unarchiveSession: fromCallback<SearchEvent, { sessionId: string }>(({ input, sendBack }) => {
        const controller = new AbortController();
        const { sessionId } = input;
        adapter.unarchiveSession(sessionId, { signal: controller.signal }).then(
          () => sendBack({ type: 'result.unarchived', sessionId }),
          () => {
            if (!controller.signal.aborted) sendBack({ type: 'result.unarchiveFailed', sessionId });
          },
        );
        return () => controller.abort();
      }),
    },
  });
}
