import { assign, emit, setup } from 'xstate';

import { defaultTarget, goalTargetError } from '../lib/goals';
import { goalCreated } from '../lib/messages';
import { stubActor } from '../lib/stub-actor';
import type { CreateGoalRequest, Goal, GoalResponse } from './goals.adapter';
import type { WizardContext, WizardEmitted, WizardEvent } from './goals.types';

export const fresh = (): WizardContext => ({
  subject: null,
  goalType: null,
  target: '',
  custom: false,
  error: null,
});

/** The typed target's problem, or null when it is a whole number from 1 to 999. */
export function wizardTargetError(context: Pick<WizardContext, 'target'>): string | null {
  const text = context.target.trim();
  return goalTargetError(text === '' ? Number.NaN : Number(text), 'create');
}

/** Types, actors (stubs until they are provided), guards and actions of `wizardMachine`. */
export const wizardSetup = setup({
  types: {
    context: {} as WizardContext,
    events: {} as WizardEvent,
    emitted: {} as WizardEmitted,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    createGoal: stubActor<GoalResponse, CreateGoalRequest>(
      'createGoal',
      'create the machine with wizardLogic(adapter)',
    ),
  },
  guards: {
    hasSubject: ({ context }) => context.subject !== null,
    isValidTarget: ({ context }) => wizardTargetError(context) === null,
  },
  actions: {
    reset: assign(fresh),
    setSubject: assign({
      subject: ({ context, event }) =>
        event.type === 'wizard.suggest' || event.type === 'subject.select'
          ? event.subject
          : context.subject,
    }),
    toggleCustom: assign({ custom: ({ context }) => !context.custom }),
    /** Entering step 3 by choosing a type sets that type's default target: 10, 30 or 3. */
    setType: assign(({ context, event }) =>
      event.type === 'type.select'
        ? { goalType: event.goalType, target: String(defaultTarget(event.goalType)) }
        : context,
    ),
    setTarget: assign({
      target: ({ context, event }) => {
        if (event.type === 'target.change') return event.value;
        if (event.type === 'target.pick') return String(event.value);
        return context.target;
      },
    }),
    clearError: assign({ error: null }),
    setError: assign({ error: (_, message: string) => message }),
    announceCreated: emit((_, goal: Goal) => ({
      type: 'goal.created' as const,
      goal,
      message: goalCreated(goal.subject, goal.goal_type, goal.target_value),
    })),
    announceCancelled: emit({ type: 'wizard.cancelled' }),
  },
});
