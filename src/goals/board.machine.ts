import { fromPromise } from 'xstate';

import { GOALS } from '../lib/limits';
import { dialogState } from './board.dialogs';
import { boardSetup, initialBoardContext } from './board.setup';
import type { GoalsAdapter } from './goals.adapter';

/**
 * The goals board (spec sections 2 and 5): the week's goals, the four stats, Recent Activity and the
 * milestone celebrations, side by side with the one dialog open at a time (the wizard, edit, delete,
 * progress history, log progress).
 */
export const boardMachine = boardSetup.createMachine({
  id: 'board',
  context: initialBoardContext,
  type: 'parallel',
  states: {
    goals: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            src: 'listCurrent',
            onDone: {
              target: 'loaded',
              actions: { type: 'showGoals', params: ({ event }) => event.output },
            },
            // 'Failed to fetch goals' is logged; the board shows a retryable empty state.
            onError: {
              target: 'failed',
              actions: [
                'clearGoals',
                { type: 'logFetchFailed', params: ({ event }) => ({ error: event.error }) },
              ],
            },
          },
        },
        loaded: { on: { 'goals.refresh': 'loading' } },
        failed: { on: { 'goals.retry': { target: 'loading', actions: 'changed' } } },
      },
    },
    /** The stats, Recent Activity and celebrations: fetched at start and after every change. */
    summary: {
      type: 'parallel',
      states: {
        activities: {
          initial: 'fetching',
          on: { 'board.changed': { target: '.fetching', reenter: true } },
          states: {
            fetching: {
              invoke: {
                src: 'activities',
                onDone: {
                  target: 'idle',
                  actions: { type: 'showActivities', params: ({ event }) => event.output },
                },
                onError: 'idle',
              },
            },
            idle: {},
          },
        },
        completedInWeek: {
          initial: 'fetching',
          on: { 'board.changed': { target: '.fetching', reenter: true } },
          states: {
            fetching: {
              invoke: {
                src: 'completedInWeek',
                onDone: {
                  target: 'idle',
                  actions: { type: 'setCompleted', params: ({ event }) => event.output },
                },
                onError: 'idle',
              },
            },
            idle: {},
          },
        },
        streak: {
          initial: 'fetching',
          on: { 'board.changed': { target: '.fetching', reenter: true } },
          states: {
            fetching: {
              invoke: {
                src: 'streak',
                onDone: {
                  target: 'idle',
                  actions: { type: 'setStreak', params: ({ event }) => event.output },
                },
                onError: 'idle',
              },
            },
            idle: {},
          },
        },
        celebrations: {
          initial: 'fetching',
          on: { 'board.changed': { target: '.fetching', reenter: true } },
          states: {
            fetching: {
              invoke: {
                src: 'celebrations',
                onDone: {
                  target: 'idle',
                  actions: { type: 'queueCelebrations', params: ({ event }) => event.output },
                },
                onError: 'idle',
              },
            },
            idle: {},
          },
        },
      },
    },
    /** The celebration shown: each milestone once, the next after a while or when dismissed. */
    celebration: {
      initial: 'idle',
      states: {
        idle: { always: { guard: 'hasCelebration', target: 'showing' } },
        showing: {
          after: { celebrationMs: { target: 'idle', actions: 'nextCelebration' } },
          on: { 'celebration.dismiss': { target: 'idle', actions: 'nextCelebration' } },
        },
      },
    },
    dialog: dialogState,
  },
});

/** setTimeout's longest delay (about 24.8 days): "until dismissed". */
const UNTIL_DISMISSED_MS = 2 ** 31 - 1;

/**
 * The board machine with the adapter's calls, each given its abort `signal`. `celebrationMs`: how
 * long a celebration stays, `null` until dismissed (the default is the setup's).
 */
export function goalsLogic(
  adapter: GoalsAdapter,
  { celebrationMs }: { celebrationMs?: number | null } = {},
) {
  return boardMachine.provide({
    ...(celebrationMs !== undefined && {
      delays: { celebrationMs: celebrationMs ?? UNTIL_DISMISSED_MS },
    }),
    actors: {
      listCurrent: fromPromise(({ signal }) => adapter.listCurrent({ signal })),
      activities: fromPromise(({ signal }) =>
        adapter.activities({ limit: GOALS.recentActivityLimit, page: 1 }, { signal }),
      ),
      completedInWeek: fromPromise(({ signal }) => adapter.completedInWeek({ signal })),
      streak: fromPromise(({ signal }) => adapter.streak({ signal })),
      celebrations: fromPromise(({ signal }) => adapter.celebrations({ signal })),
      update: fromPromise(({ input, signal }) =>
        adapter.update(input.id, { target_value: input.target }, { signal }),
      ),
      remove: fromPromise(({ input, signal }) => adapter.remove(input.id, { signal })),
      logProgress: fromPromise(({ input, signal }) =>
        adapter.logProgress(input.id, input.body, { signal }),
      ),
      progressHistory: fromPromise(({ input, signal }) =>
        adapter.progressHistory(
          input.id,
          { limit: GOALS.progressPageSize, page: input.page },
          { signal },
        ),
      ),
    },
  });
}
