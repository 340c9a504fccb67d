import { describe, expect, it, vi } from 'vitest';
import { type AnyActorLogic, createActor, toPromise, waitFor } from 'xstate';

import { apiError, deferred, fakeGoalsAdapter, goal } from '../../../fakes/goals';
import type { GoalResponse, GoalsAdapter } from '../../../src/api';
import { wizardLogic, wizardMachine } from '../../../src/goals/wizard.machine';
import { wizardTargetError } from '../../../src/goals/wizard.setup';
import { GOALS } from '../../../src/lib/limits';
import { startRecording } from '../../support/recording';

function start(overrides: Partial<GoalsAdapter> = {}) {
  return startRecording(wizardLogic(fakeGoalsAdapter(overrides)));
}

type Actor = ReturnType<typeof start>['actor'];
const value = (actor: Actor) => actor.getSnapshot().value;
const context = (actor: Actor) => actor.getSnapshot().context;

/** Walks to step 4 with math, problems solved and `target`. */
function toReview(actor: Actor, target = '15') {
  actor.send({ type: 'wizard.suggest', subject: 'math' });
  actor.send({ type: 'type.select', goalType: 'problems_solved' });
  actor.send({ type: 'target.change', value: target });
  actor.send({ type: 'wizard.next' });
}

describe('wizard machine', () => {
  it('fails loudly without its actor', async () => {
    const stub = wizardMachine.implementations.actors.createGoal as AnyActorLogic;
    await expect(toPromise(createActor(stub).start())).rejects.toThrow(
      'createGoal must be provided: create the machine with wizardLogic(adapter)',
    );
  });

  it('starts on step 1 with nothing chosen', () => {
    const { actor } = start();
    expect(value(actor)).toBe('subject');
    expect(context(actor)).toEqual({
      subject: null,
      goalType: null,
      target: '',
      custom: false,
      error: null,
    });
  });

  it('jumps to step 2 when a suggestion card picks a subject', () => {
    const { actor } = start();
    actor.send({ type: 'wizard.suggest', subject: 'science' });
    expect(value(actor)).toBe('goalType');
    expect(context(actor).subject).toBe('science');
  });

  it('shows the full subject list behind the custom-goal toggle; Next needs a subject', () => {
    const { actor } = start();
    actor.send({ type: 'wizard.custom' });
    expect(context(actor).custom).toBe(true);
    expect(actor.getSnapshot().can({ type: 'wizard.next' })).toBe(false);
    actor.send({ type: 'wizard.next' });
    expect(value(actor)).toBe('subject');
    actor.send({ type: 'subject.select', subject: 'history' });
    expect(value(actor)).toBe('subject');
    actor.send({ type: 'wizard.next' });
    expect(value(actor)).toBe('goalType');
    expect(context(actor).subject).toBe('history');
    actor.send({ type: 'wizard.back' });
    actor.send({ type: 'wizard.custom' });
    expect(context(actor).custom).toBe(false);
  });

  it.each([
    ['problems_solved', '10'],
    ['study_time', '30'],
    ['topics_learned', '3'],
  ] as const)('choosing %s jumps to step 3 with the default target %s', (goalType, target) => {
    const { actor } = start();
    actor.send({ type: 'wizard.suggest', subject: 'math' });
    actor.send({ type: 'type.select', goalType });
    expect(value(actor)).toBe('target');
    expect(context(actor)).toMatchObject({ goalType, target });
  });

  it('takes quick picks and typed targets; Next only for 1–999', () => {
    const { actor } = start();
    actor.send({ type: 'wizard.suggest', subject: 'math' });
    actor.send({ type: 'type.select', goalType: 'study_time' });
    for (const pick of GOALS.quickPicks.study_time) {
      actor.send({ type: 'target.pick', value: pick });
      expect(context(actor).target).toBe(String(pick));
    }
    for (const bad of ['', '0', '1000', '2.5', 'abc', '-3']) {
      actor.send({ type: 'target.change', value: bad });
      expect(wizardTargetError(context(actor)), bad).toBe(
        'Target must be a whole number from 1 to 999',
      );
      actor.send({ type: 'wizard.next' });
      expect(value(actor)).toBe('target');
    }
    actor.send({ type: 'target.change', value: '999' });
    actor.send({ type: 'wizard.next' });
    expect(value(actor)).toBe('review');
  });

  it('goes back step by step, keeping what was chosen', () => {
    const { actor } = start();
    toReview(actor, '25');
    expect(value(actor)).toBe('review');
    actor.send({ type: 'wizard.back' });
    expect(value(actor)).toBe('target');
    expect(context(actor).target).toBe('25');
    actor.send({ type: 'wizard.back' });
    expect(value(actor)).toBe('goalType');
    actor.send({ type: 'wizard.back' });
    expect(value(actor)).toBe('subject');
    expect(context(actor).subject).toBe('math');
  });

  it('cancels from any step: starts over and says so', () => {
    const { actor, emitted } = start();
    toReview(actor);
    actor.send({ type: 'wizard.cancel' });
    expect(value(actor)).toBe('subject');
    expect(context(actor).subject).toBeNull();
    expect(emitted).toEqual([{ type: 'wizard.cancelled' }]);
  });

  it('creates the goal, announces the created message and resets', async () => {
    const call = deferred<GoalResponse>();
    const create = vi.fn(() => call.promise);
    const { actor, emitted } = start({ create });
    toReview(actor, '15');
    actor.send({ type: 'wizard.create' });
    expect(value(actor)).toBe('creating');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(create).toHaveBeenCalledWith(
      { subject: 'math', goal_type: 'problems_solved', target_value: 15 },
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    // Cancel is ignored while the goal is being created.
    actor.send({ type: 'wizard.cancel' });
    expect(value(actor)).toBe('creating');
    const created = goal('g-1', 'math', 'problems_solved', 15);
    call.resolve({ goal: created });
    await waitFor(actor, (s) => s.matches('subject'));
    expect(emitted).toEqual([
      { type: 'goal.created', goal: created, message: 'Math goal created: 15 problems per week!' },
    ]);
    expect(context(actor)).toMatchObject({ subject: null, goalType: null, target: '' });
  });

  it("shows the server's refusal (the 3-subject limit) on step 4, and retries", async () => {
    const create = vi
      .fn()
      .mockRejectedValueOnce(
        apiError(400, 'You can only create a maximum of 3 courses at a time.'),
      );
    const { actor } = start({ create });
    toReview(actor);
    actor.send({ type: 'wizard.create' });
    await waitFor(actor, (s) => s.matches('refused'));
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(context(actor).error).toBe('You can only create a maximum of 3 courses at a time.');
    actor.send({ type: 'wizard.back' });
    expect(value(actor)).toBe('target');
    expect(context(actor).error).toBeNull();
  });

  it('names a failure without words of its own', async () => {
    const { actor } = start({ create: () => Promise.reject(new Error('boom')) });
    toReview(actor);
    actor.send({ type: 'wizard.create' });
    await waitFor(actor, (s) => s.matches('refused'));
    expect(context(actor).error).toBe('Failed to create goal');
  });
});
