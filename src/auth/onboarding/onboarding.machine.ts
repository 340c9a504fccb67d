import { assign, emit, fromPromise } from 'xstate';

import { serverMessage } from '../../lib/http-errors';
import { GOALS } from '../../lib/limits';
import { AUTH_MESSAGES } from '../../lib/messages';
import type { AuthAdapter, CompleteOnboardingRequest, UserResponse } from '../auth.adapter';
import { onboardingSetup } from './onboarding.setup';

/**
 * The first run for a signed-in user whose onboarding is not completed: `welcome` (what Ayah does),
 * `subjects` (pick the ones of interest), `tour` (goals and points), then `completing` the onboarding
 * on the server and `done`.
 */
export const onboardingMachine = onboardingSetup.createMachine({
  id: 'onboarding',
  context: { subjects: [], result: null },
  initial: 'welcome',
  states: {
    welcome: { on: { 'onboarding.next': 'subjects' } },
    subjects: {
      on: {
        'subject.toggle': {
          actions: assign({
            subjects: ({ context, event }) =>
              GOALS.subjects.filter((subject) =>
                subject === event.subject
                  ? !context.subjects.includes(subject)
                  : context.subjects.includes(subject),
              ),
          }),
        },
        'onboarding.back': 'welcome',
        'onboarding.next': 'tour',
      },
    },
    tour: {
      on: {
        'onboarding.back': 'subjects',
        'onboarding.complete': 'completing',
      },
    },
    completing: {
      tags: ['busy'],
      invoke: {
        src: 'completeOnboarding',
        input: ({ context }) => ({ interests: context.subjects }),
        onDone: { target: 'done', actions: assign({ result: ({ event }) => event.output }) },
        onError: {
          target: 'tour',
          actions: emit(({ event }) => ({
            type: 'notify',
            tone: 'error',
            message: serverMessage(event.error, AUTH_MESSAGES.onboardingFailed),
          })),
        },
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ subjects: context.subjects, result: context.result }),
});

/** The onboarding machine over `adapter`. */
export function onboardingLogic(adapter: AuthAdapter) {
  return onboardingMachine.provide({
    actors: {
      completeOnboarding: fromPromise<UserResponse, CompleteOnboardingRequest>(
        ({ input, signal }) => adapter.completeOnboarding(input, { signal }),
      ),
    },
  });
}
