import { fromPromise } from 'xstate';

import { serverMessage } from '../lib/http-errors';
import { GOAL_MESSAGES } from '../lib/messages';
import type { GoalsAdapter } from './goals.adapter';
import { fresh, wizardSetup } from './wizard.setup';

/**
 * The create wizard (spec section 4): steps 1 Subject, 2 Goal type, 3 Target, 4 Review/create. Each
 * step is a state; Cancel from any step but `creating` starts over, and so does a created goal.
 */
export const wizardMachine = wizardSetup.createMachine({
  id: 'wizard',
  context: fresh,
  initial: 'subject',
  on: {
    'wizard.cancel': { target: '.subject', actions: ['reset', 'announceCancelled'] },
  },
  states: {
    /** Step 1: suggestion cards, or the full list behind the custom-goal toggle. */
    subject: {
      on: {
        'wizard.suggest': { target: 'goalType', actions: 'setSubject' },
        'wizard.custom': { actions: 'toggleCustom' },
        'subject.select': { actions: 'setSubject' },
        'wizard.next': { guard: 'hasSubject', target: 'goalType' },
      },
    },
    /** Step 2: problems solved, study time or topics learned. */
    goalType: {
      on: {
        'type.select': { target: 'target', actions: 'setType' },
        'wizard.back': 'subject',
      },
    },
    /** Step 3: the weekly target, with quick picks and the recommended range. */
    target: {
      on: {
        'target.change': { actions: 'setTarget' },
        'target.pick': { actions: 'setTarget' },
        'wizard.next': { guard: 'isValidTarget', target: 'review' },
        'wizard.back': 'goalType',
      },
    },
    /** Step 4: what will be created; a refusal of the server is shown here. */
    review: {
      exit: 'clearError',
      on: {
        'wizard.create': 'creating',
        'wizard.back': 'target',
      },
    },
    creating: {
      tags: ['busy'],
      on: { 'wizard.cancel': {} },
      invoke: {
        src: 'createGoal',
        input: ({ context }) => ({
          subject: context.subject!,
          goal_type: context.goalType!,
          target_value: Number(context.target.trim()),
        }),
        onDone: {
          target: 'subject',
          actions: [{ type: 'announceCreated', params: ({ event }) => event.output.goal }, 'reset'],
        },
        onError: {
          target: 'refused',
          actions: {
            type: 'setError',
            params: ({ event }) => serverMessage(event.error, GOAL_MESSAGES.createFailed),
          },
        },
      },
    },
    /** Step 4 again, showing the server's message (e.g. the 3-subject limit). */
    refused: {
      tags: ['error'],
      exit: 'clearError',
      on: {
        'wizard.create': 'creating',
        'wizard.back': 'target',
      },
    },
  },
});

/** The wizard with the adapter's create call. */
export function wizardLogic(adapter: GoalsAdapter) {
  return wizardMachine.provide({
    actors: {
      createGoal: fromPromise(({ input, signal }) => adapter.create(input, { signal })),
    },
  });
}
