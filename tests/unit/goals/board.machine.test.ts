import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorLogic, createActor, toPromise, waitFor } from 'xstate';

import {
  apiError,
  deferred,
  fakeGoalsAdapter,
  type FakeGoalsOptions,
  goal,
  historyDays,
  sampleGoals,
} from '../../../fakes/goals';
import type { Celebration, GoalListResponse, GoalResponse, GoalsAdapter } from '../../../src/api';
import { boardMachine, goalsLogic } from '../../../src/goals/board.machine';
import { startRecording } from '../../support/recording';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

function start(overrides: Partial<GoalsAdapter> = {}, options: FakeGoalsOptions = {}) {
  const adapter = fakeGoalsAdapter(overrides, options);
  return { ...startRecording(goalsLogic(adapter)), adapter };
}

type Actor = ReturnType<typeof start>['actor'];
const ready = (actor: Actor) =>
  waitFor(
    actor,
    (s) =>
      s.matches({ goals: 'loaded' }) &&
      s.matches({
        summary: {
          activities: 'idle',
          completedInWeek: 'idle',
          streak: 'idle',
          celebrations: 'idle',
        },
      }),
  );
const closed = (actor: Actor) => waitFor(actor, (s) => s.matches({ dialog: 'closed' }));
const ctx = (actor: Actor) => actor.getSnapshot().context;

describe('board machine: loading', () => {
  it('fails loudly without its actors', async () => {
    const stub = boardMachine.implementations.actors.listCurrent as AnyActorLogic;
    await expect(toPromise(createActor(stub).start())).rejects.toThrow(
      'listCurrent must be provided: create the machine with goalsLogic(adapter)',
    );
  });

  it('loads the week: goals, the stats and Recent Activity (5)', async () => {
    const list = deferred<GoalListResponse>();
    const activities = vi.fn(fakeGoalsAdapter().activities);
    const { actor } = start({ listCurrent: () => list.promise, activities });
    expect(actor.getSnapshot().matches({ goals: 'loading' })).toBe(true);
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    list.resolve({ goals: sampleGoals });
    await ready(actor);
    expect(ctx(actor).goals).toHaveLength(3);
    expect(ctx(actor)).toMatchObject({ completedInWeek: 1, streak: 3 });
    expect(ctx(actor).activities).toHaveLength(3);
    expect(activities).toHaveBeenCalledWith({ limit: 5, page: 1 }, expect.anything());
  });

  it("logs 'Failed to fetch goals' and shows a retryable empty state", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const listCurrent = vi.fn().mockRejectedValueOnce(apiError());
    const { actor } = start({
      listCurrent: (o) => listCurrent(o) ?? fakeGoalsAdapter().listCurrent(),
    });
    await waitFor(actor, (s) => s.matches({ goals: 'failed' }));
    expect(error).toHaveBeenCalledWith('Failed to fetch goals', expect.anything());
    expect(ctx(actor).goals).toEqual([]);
    listCurrent.mockResolvedValueOnce({ goals: sampleGoals });
    actor.send({ type: 'goals.retry' });
    await waitFor(actor, (s) => s.matches({ goals: 'loaded' }));
    expect(ctx(actor).goals).toHaveLength(3);
  });

  it('keeps the last figures when a summary call fails', async () => {
    const { actor } = start({ streak: () => Promise.reject(apiError()) });
    await ready(actor);
    expect(ctx(actor).streak).toBe(0);
    expect(ctx(actor).completedInWeek).toBe(1);
  });

  it('reloads the list on goals.refresh', async () => {
    const listCurrent = vi.fn(async () => ({ goals: sampleGoals.slice(0, 1) }));
    const { actor } = start({ listCurrent });
    await ready(actor);
    actor.send({ type: 'goals.refresh' });
    await waitFor(actor, (s) => s.matches({ goals: 'loaded' }));
    expect(listCurrent).toHaveBeenCalledTimes(2);
  });
});

describe('board machine: the wizard', () => {
  it('opens and closes the wizard; a created goal joins the board and the stats refresh', async () => {
    const streak = vi.fn(async () => ({ streak: 3 }));
    const { actor } = start({ streak });
    await ready(actor);
    actor.send({ type: 'wizard.open' });
    expect(actor.getSnapshot().matches({ dialog: 'wizard' })).toBe(true);
    actor.send({ type: 'wizard.close' });
    await closed(actor);
    actor.send({ type: 'wizard.open' });
    actor.send({ type: 'goal.created', goal: goal('g-new', 'history') });
    await closed(actor);
    expect(ctx(actor).goals.map((g) => g._id)).toContain('g-new');
    await ready(actor);
    expect(streak).toHaveBeenCalledTimes(2);
  });

  it('ignores goal.created while the wizard is not open', async () => {
    const { actor } = start();
    await ready(actor);
    actor.send({ type: 'goal.created', goal: goal('g-new', 'history') });
    expect(ctx(actor).goals).toHaveLength(3);
  });
});

describe('board machine: edit', () => {
  it("saves a new target: 'Goal updated successfully!'", async () => {
    const call = deferred<GoalResponse>();
    const update = vi.fn(() => call.promise);
    const { actor, emitted } = start({ update });
    await ready(actor);
    actor.send({ type: 'goal.edit', goalId: 'g-math' });
    expect(actor.getSnapshot().value).toMatchObject({ dialog: { editing: 'form' } });
    expect(ctx(actor).target?._id).toBe('g-math');
    actor.send({ type: 'edit.save', target: 0 });
    expect(actor.getSnapshot().matches({ dialog: { editing: 'form' } })).toBe(true);
    actor.send({ type: 'edit.save', target: 1500 }); // edit has a minimum only
    expect(actor.getSnapshot().matches({ dialog: { editing: 'saving' } })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(update).toHaveBeenCalledWith('g-math', { target_value: 1500 }, expect.anything());
    call.resolve({ goal: { ...sampleGoals[0]!, target_value: 1500, total_progress: 0.32 } });
    await closed(actor);
    expect(ctx(actor).goals[0]!.target_value).toBe(1500);
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'success',
      message: 'Goal updated successfully!',
    });
  });

  it("stays open with 'Failed to update goal' on a failure", async () => {
    const { actor, emitted } = start({ update: () => Promise.reject(apiError()) });
    await ready(actor);
    actor.send({ type: 'goal.edit', goalId: 'g-math' });
    actor.send({ type: 'edit.save', target: 30 });
    await waitFor(actor, (s) => s.matches({ dialog: { editing: 'form' } }));
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'error',
      message: 'Failed to update goal',
    });
  });

  it('says the server refused when the goal passed 50 % meanwhile', async () => {
    const lock = 'Goals with more than 50% progress cannot be edited.';
    const { actor, emitted } = start({ update: () => Promise.reject(apiError(400, lock)) });
    await ready(actor);
    actor.send({ type: 'goal.edit', goalId: 'g-math' });
    actor.send({ type: 'edit.save', target: 30 });
    await waitFor(actor, (s) => s.matches({ dialog: { editing: 'form' } }));
    expect(emitted).toContainEqual({ type: 'notify', tone: 'error', message: lock });
  });

  it('opens a goal over 50 % as locked; exactly 50 % may be edited', async () => {
    const { actor } = start(
      {},
      {
        goals: [
          goal('a', 'math', 'problems_solved', 10, 60),
          goal('b', 'math', 'study_time', 10, 50),
        ],
      },
    );
    await ready(actor);
    actor.send({ type: 'goal.edit', goalId: 'a' });
    expect(actor.getSnapshot().matches({ dialog: 'locked' })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'edit.save', target: 5 })).toBe(false);
    actor.send({ type: 'edit.cancel' });
    await closed(actor);
    actor.send({ type: 'goal.edit', goalId: 'b' });
    expect(actor.getSnapshot().matches({ dialog: { editing: 'form' } })).toBe(true);
    actor.send({ type: 'edit.cancel' });
    await closed(actor);
    expect(ctx(actor).target).toBeNull();
  });

  it('ignores an unknown goal', async () => {
    const { actor } = start();
    await ready(actor);
    for (const type of ['goal.edit', 'goal.delete', 'goal.history', 'goal.log'] as const) {
      actor.send({ type, goalId: 'nope' });
      expect(actor.getSnapshot().matches({ dialog: 'closed' })).toBe(true);
    }
  });
});

describe('board machine: delete', () => {
  it("asks first, then deletes: 'Goal deleted successfully'", async () => {
    const remove = vi.fn(fakeGoalsAdapter().remove);
    const { actor, emitted } = start({ remove });
    await ready(actor);
    actor.send({ type: 'goal.delete', goalId: 'g-science' });
    expect(actor.getSnapshot().matches({ dialog: { deleting: 'confirming' } })).toBe(true);
    actor.send({ type: 'delete.cancel' });
    await closed(actor);
    expect(remove).not.toHaveBeenCalled();
    actor.send({ type: 'goal.delete', goalId: 'g-science' });
    actor.send({ type: 'delete.confirm' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await closed(actor);
    expect(ctx(actor).goals.map((g) => g._id)).toEqual(['g-math', 'g-english']);
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'success',
      message: 'Goal deleted successfully',
    });
  });

  it('keeps the goal when the delete fails', async () => {
    const { actor, emitted } = start({ remove: () => Promise.reject(apiError()) });
    await ready(actor);
    actor.send({ type: 'goal.delete', goalId: 'g-science' });
    actor.send({ type: 'delete.confirm' });
    await closed(actor);
    expect(ctx(actor).goals).toHaveLength(3);
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'error',
      message: 'Failed to delete goal',
    });
  });
});

describe('board machine: progress history', () => {
  it('pages 4 days at a time', async () => {
    const progressHistory = vi.fn(
      fakeGoalsAdapter({}, { history: historyDays(6) }).progressHistory,
    );
    const { actor } = start({ progressHistory });
    await ready(actor);
    actor.send({ type: 'goal.history', goalId: 'g-math' });
    expect(actor.getSnapshot().matches({ dialog: { history: 'loading' } })).toBe(true);
    await waitFor(actor, (s) => s.matches({ dialog: { history: 'loaded' } }));
    expect(progressHistory).toHaveBeenLastCalledWith(
      'g-math',
      { limit: 4, page: 1 },
      expect.anything(),
    );
    expect(ctx(actor).history).toMatchObject({ page: 1, total: 6, hasMore: true });
    expect(ctx(actor).history.entries).toHaveLength(4);
    expect(actor.getSnapshot().can({ type: 'history.page', page: 3 })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'history.page', page: 1 })).toBe(false);
    actor.send({ type: 'history.page', page: 2 });
    await waitFor(actor, (s) => s.matches({ dialog: { history: 'loaded' } }));
    expect(ctx(actor).history).toMatchObject({ page: 2, hasMore: false });
    expect(ctx(actor).history.entries).toHaveLength(2);
    actor.send({ type: 'history.close' });
    await closed(actor);
    expect(ctx(actor).history.entries).toEqual([]);
  });

  it('shows a failed page and retries it', async () => {
    const progressHistory = vi.fn().mockRejectedValueOnce(apiError());
    progressHistory.mockResolvedValueOnce({
      data: historyDays(1),
      total: 1,
      page: 1,
      limit: 4,
      hasMore: false,
    });
    const { actor } = start({ progressHistory });
    await ready(actor);
    actor.send({ type: 'goal.history', goalId: 'g-math' });
    await waitFor(actor, (s) => s.matches({ dialog: { history: 'failed' } }));
    actor.send({ type: 'history.retry' });
    await waitFor(actor, (s) => s.matches({ dialog: { history: 'loaded' } }));
    expect(ctx(actor).history.entries).toHaveLength(1);
  });
});

describe('board machine: logging progress', () => {
  it('logs value, topic and minutes, updates the goal and fetches the stats again', async () => {
    const logProgress = vi.fn(fakeGoalsAdapter().logProgress);
    const celebrations = vi.fn(async () => []);
    const { actor, emitted } = start({ logProgress, celebrations });
    await ready(actor);
    actor.send({ type: 'goal.log', goalId: 'g-math' });
    expect(actor.getSnapshot().matches({ dialog: { logging: 'form' } })).toBe(true);
    actor.send({ type: 'progress.save', value: 0 });
    expect(actor.getSnapshot().matches({ dialog: { logging: 'form' } })).toBe(true);
    actor.send({ type: 'progress.save', value: 3, topic: '  Fractions ', minutes: 20 });
    expect(actor.getSnapshot().matches({ dialog: { logging: 'saving' } })).toBe(true);
    await closed(actor);
    expect(logProgress).toHaveBeenCalledWith(
      'g-math',
      { value: 3, topic: 'Fractions', minutes: 20 },
      expect.anything(),
    );
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'success',
      message: 'Progress logged!',
    });
    await ready(actor);
    expect(celebrations).toHaveBeenCalledTimes(2);
  });

  it('leaves out a blank topic and absent minutes', async () => {
    const logProgress = vi.fn(fakeGoalsAdapter().logProgress);
    const { actor } = start({ logProgress });
    await ready(actor);
    actor.send({ type: 'goal.log', goalId: 'g-math' });
    actor.send({ type: 'progress.save', value: 2, topic: '  ' });
    await closed(actor);
    expect(logProgress).toHaveBeenCalledWith('g-math', { value: 2 }, expect.anything());
  });

  it('keeps the form open when logging fails', async () => {
    const { actor, emitted } = start({ logProgress: () => Promise.reject(apiError()) });
    await ready(actor);
    actor.send({ type: 'goal.log', goalId: 'g-math' });
    actor.send({ type: 'progress.save', value: 2 });
    await waitFor(actor, (s) => s.matches({ dialog: { logging: 'form' } }));
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'error',
      message: 'Failed to log progress',
    });
    actor.send({ type: 'progress.cancel' });
    await closed(actor);
  });
});

describe('board machine: celebrations', () => {
  // Issue 25 item 1: one log action celebrates once, with the highest milestone it crossed.
  it('celebrates one log once, with the highest milestone it crossed', async () => {
    const { actor } = start({}, { goals: [goal('g', 'math', 'problems_solved', 4, 0)] });
    await ready(actor);
    expect(actor.getSnapshot().matches({ celebration: 'idle' })).toBe(true);
    actor.send({ type: 'goal.log', goalId: 'g' });
    actor.send({ type: 'progress.save', value: 2 }); // 50 %: 25 and 50 crossed
    await closed(actor);
    await waitFor(actor, (s) => s.matches({ celebration: 'showing' }));
    expect(ctx(actor).celebrations.map((c) => c.milestone)).toEqual([50]);
    actor.send({ type: 'celebration.dismiss' });
    expect(actor.getSnapshot().matches({ celebration: 'idle' })).toBe(true);
    actor.send({ type: 'goal.log', goalId: 'g' });
    actor.send({ type: 'progress.save', value: 2 }); // 100 %: 75 and 100 crossed
    await closed(actor);
    await waitFor(actor, (s) => s.context.celebrations.length > 0);
    expect(ctx(actor).celebrations.map((c) => c.milestone)).toEqual([100]);
  });

  /** A log on the math goal: the board fetches the celebrations again after it. */
  async function logOne(actor: ReturnType<typeof start>['actor']) {
    actor.send({ type: 'goal.log', goalId: 'g-math' });
    actor.send({ type: 'progress.save', value: 1 });
    await closed(actor);
  }

  it('never shows a milestone passed: a higher one replaces the queued one of its goal', async () => {
    let found: Celebration[] = [
      { goal_id: 'g-math', milestone: 25 as const },
      { goal_id: 'g-science', milestone: 50 as const },
    ];
    const { actor } = start({ celebrations: async () => found });
    await waitFor(actor, (s) => s.matches({ celebration: 'showing' }));
    expect(ctx(actor).celebrations.map((c) => c.milestone)).toEqual([25, 50]);
    // Math goes on to 100 % while its 25 % banner still shows; a late 75 % of it means nothing now.
    found = [
      { goal_id: 'g-math', milestone: 75 as const },
      { goal_id: 'g-math', milestone: 100 as const },
    ];
    await logOne(actor);
    await waitFor(actor, (s) => s.context.celebrations[0]?.milestone === 100);
    expect(ctx(actor).celebrations).toEqual([
      { goal_id: 'g-math', milestone: 100 },
      { goal_id: 'g-science', milestone: 50 },
    ]);
    actor.send({ type: 'celebration.dismiss' });
    found = [{ goal_id: 'g-math', milestone: 75 as const }];
    await logOne(actor);
    await ready(actor);
    expect(ctx(actor).celebrations).toEqual([{ goal_id: 'g-science', milestone: 50 }]);
  });

  it('never queues a milestone twice, even if the server repeats it', async () => {
    const again = [{ goal_id: 'g-math', milestone: 25 as const }];
    const { actor } = start({ celebrations: async () => again });
    await waitFor(actor, (s) => s.matches({ celebration: 'showing' }));
    actor.send({ type: 'goals.refresh' });
    actor.send({ type: 'goal.log', goalId: 'g-math' });
    actor.send({ type: 'progress.save', value: 1 });
    await closed(actor);
    await ready(actor);
    expect(ctx(actor).celebrations).toEqual(again);
  });

  it('moves on to the next celebration by itself after a while', async () => {
    vi.useFakeTimers();
    const { actor } = start({}, { celebrations: [{ goal_id: 'g-math', milestone: 25 }] });
    await vi.waitFor(() =>
      expect(actor.getSnapshot().matches({ celebration: 'showing' })).toBe(true),
    );
    vi.advanceTimersByTime(6000);
    expect(actor.getSnapshot().matches({ celebration: 'idle' })).toBe(true);
    expect(ctx(actor).celebrations).toEqual([]);
  });
});
