import { assign, emit, raise, setup } from 'xstate';

import { canEditGoal, isValidTarget, progressEntryError } from '../lib/goals';
import { isStatus, serverMessage } from '../lib/http-errors';
import { GOALS } from '../lib/limits';
import { GOAL_MESSAGES } from '../lib/messages';
import { stubActor } from '../lib/stub-actor';
import type { MessageResponse, Paged } from '../wire';
import type {
  Celebration,
  Goal,
  GoalActivity,
  GoalListResponse,
  GoalProgressEntry,
  GoalResponse,
  LogProgressRequest,
} from './goals.adapter';
import type { BoardContext, BoardEmitted, BoardEvent, GoalHistory } from './goals.types';

const HOW = 'create the machine with goalsLogic(adapter)';

/*
 * What the board machine can do: its actors, guards and actions, by name. The statechart in
 * `board.machine.ts` says when; `goalsLogic(adapter)` there provides the side effects stubbed here.
 */

const EMPTY_HISTORY: GoalHistory = { entries: [], page: 1, total: 0, hasMore: false };
const keyOf = (c: Celebration) => `${c.goal_id}:${c.milestone}`;

/** The highest milestone queued so far for each goal, from the `goal_id:milestone` keys. */
function highestByGoal(keys: readonly string[]): Map<string, number> {
  const highest = new Map<string, number>();
  for (const key of keys) {
    const at = key.lastIndexOf(':');
    const id = key.slice(0, at);
    highest.set(id, Math.max(highest.get(id) ?? 0, Number(key.slice(at + 1))));
  }
  return highest;
}

function goalNamed(context: BoardContext, event: BoardEvent): Goal | null {
  if (!('goalId' in event)) return null;
  return context.goals.find((goal) => goal._id === event.goalId) ?? null;
}

export const boardSetup = setup({
  types: {
    context: {} as BoardContext,
    events: {} as BoardEvent,
    emitted: {} as BoardEmitted,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    listCurrent: stubActor<GoalListResponse, void>('listCurrent', HOW),
    activities: stubActor<Paged<'data', GoalActivity>, void>('activities', HOW),
    completedInWeek: stubActor<{ count: number }, void>('completedInWeek', HOW),
    streak: stubActor<{ streak: number }, void>('streak', HOW),
    celebrations: stubActor<Celebration[], void>('celebrations', HOW),
    update: stubActor<GoalResponse, { id: string; target: number }>('update', HOW),
    remove: stubActor<MessageResponse, { id: string }>('remove', HOW),
    logProgress: stubActor<GoalResponse, { id: string; body: LogProgressRequest }>(
      'logProgress',
      HOW,
    ),
    progressHistory: stubActor<Paged<'data', GoalProgressEntry>, { id: string; page: number }>(
      'progressHistory',
      HOW,
    ),
  },
  guards: {
    isKnownGoal: ({ context, event }) => goalNamed(context, event) !== null,
    isEditable: ({ context, event }) => {
      const goal = goalNamed(context, event);
      return goal !== null && canEditGoal(goal.total_progress);
    },
    isValidEdit: ({ event }) => event.type === 'edit.save' && isValidTarget(event.target, 'edit'),
    isValidProgress: ({ event }) => event.type === 'progress.save' && !progressEntryError(event),
    isOtherPage: ({ context, event }) =>
      event.type === 'history.page' &&
      event.page !== context.history.page &&
      event.page >= 1 &&
      event.page <= Math.max(1, Math.ceil(context.history.total / GOALS.progressPageSize)),
    hasCelebration: ({ context }) => context.celebrations.length > 0,
  },
  actions: {
    showGoals: assign({ goals: (_, list: GoalListResponse) => list.goals }),
    clearGoals: assign({ goals: [] }),
    logFetchFailed: (_, { error }: { error: unknown }) =>
      console.error(GOAL_MESSAGES.fetchFailed, error),
    showActivities: assign({
      activities: (_, page: Paged<'data', GoalActivity>) =>
        page.data.slice(0, GOALS.recentActivityLimit),
    }),
    setCompleted: assign({ completedInWeek: (_, answer: { count: number }) => answer.count }),
    setStreak: assign({ streak: (_, answer: { streak: number }) => answer.streak }),
    // One log crosses one or more milestones of its goal: it is celebrated once, with the highest.
    // Milestones at or below one already queued or shown for a goal are passed and never shown; a
    // higher one takes the queued one's place in the queue (the banner on show included).
    queueCelebrations: assign(({ context }, found: Celebration[]) => {
      const reached = highestByGoal(context.celebrated);
      const best = new Map<string, Celebration>();
      for (const c of found) {
        if (c.milestone <= (reached.get(c.goal_id) ?? 0)) continue;
        if (c.milestone > (best.get(c.goal_id)?.milestone ?? 0)) best.set(c.goal_id, c);
      }
      if (best.size === 0) return {};
      const replaced = context.celebrations.map((c) => best.get(c.goal_id) ?? c);
      const added = [...best.values()].filter(
        (c) => !context.celebrations.some((q) => q.goal_id === c.goal_id),
      );
      return {
        celebrations: [...replaced, ...added],
        celebrated: [...context.celebrated, ...[...best.values()].map(keyOf)],
      };
    }),
    nextCelebration: assign({ celebrations: ({ context }) => context.celebrations.slice(1) }),
    changed: raise({ type: 'board.changed' }),

    setTarget: assign({ target: ({ context, event }) => goalNamed(context, event) }),
    clearTarget: assign({ target: null, history: EMPTY_HISTORY }),
    addGoal: assign({
      goals: ({ context, event }) =>
        event.type === 'goal.created' ? [...context.goals, event.goal] : context.goals,
    }),
    replaceGoal: assign({
      goals: ({ context }, goal: Goal) => context.goals.map((g) => (g._id === goal._id ? goal : g)),
      target: (_, goal: Goal) => goal,
    }),
    removeTarget: assign({
      goals: ({ context }) => context.goals.filter((g) => g._id !== context.target?._id),
    }),
    setHistoryPage: assign({
      history: ({ context, event }) =>
        event.type === 'history.page' ? { ...context.history, page: event.page } : context.history,
    }),
    showHistory: assign({
      history: ({ context }, page: Paged<'data', GoalProgressEntry>) => ({
        entries: page.data,
        page: context.history.page,
        total: page.total,
        hasMore: page.hasMore,
      }),
    }),

    notifyUpdated: emit({ type: 'notify', tone: 'success', message: GOAL_MESSAGES.updated }),
    notifyUpdateFailed: emit((_, { error }: { error: unknown }) => ({
      type: 'notify' as const,
      tone: 'error' as const,
      // The 50 % lock in the server's words (a 400); anything else is 'Failed to update goal'.
      message: isStatus(error, 400)
        ? serverMessage(error, GOAL_MESSAGES.updateFailed)
        : GOAL_MESSAGES.updateFailed,
    })),
    notifyDeleted: emit({ type: 'notify', tone: 'success', message: GOAL_MESSAGES.deleted }),
    notifyDeleteFailed: emit({
      type: 'notify',
      tone: 'error',
      message: GOAL_MESSAGES.deleteFailed,
    }),
    notifyLogged: emit({ type: 'notify', tone: 'success', message: GOAL_MESSAGES.progressLogged }),
    notifyLogFailed: emit((_, { error }: { error: unknown }) => ({
      type: 'notify' as const,
      tone: 'error' as const,
      message: serverMessage(error, GOAL_MESSAGES.progressFailed),
    })),
  },
  delays: {
    /** How long a celebration stays before the next one (or none) takes its place. */
    celebrationMs: 6000,
  },
});

export const initialBoardContext = (): BoardContext => ({
  goals: [],
  activities: [],
  completedInWeek: 0,
  streak: 0,
  target: null,
  history: EMPTY_HISTORY,
  celebrations: [],
  celebrated: [],
});
