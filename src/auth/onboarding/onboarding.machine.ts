import { assign, emit, fromPromise, setup } from 'xstate';

import { GOALS, type Subject } from '../../lib/limits';
import { AUTH_MESSAGES } from '../../lib/messages';
import { stubActor } from '../../lib/stub-actor';
import type { AuthAdapter, CompleteOnboardingRequest, UserResponse } from '../auth.adapter';
import { type AuthNotice, serverMessage } from '../notices';

export type OnboardingContext = {
  /** The subjects the student is interested in, in the order of `GOALS.subjects`. */
  subjects: Subject[];
  /** The answer of `completeOnboarding`, once it came. */
  result: UserResponse | null;
};

export type OnboardingEvent =
  | { type: 'onboarding.next' }
  | { type: 'onboarding.back' }
  | { type: 'subject.toggle'; subject: Subject }
  | { type: 'onboarding.complete' };

/**
 * The first run for a signed-in user whose onboarding is not completed: `welcome` (what Ayah does),
 * `subjects` (pick the ones of interest), `tour` (goals and points), then `completing` the onboarding
 * on the server and `done`.
 */
export const onboardingMachine = setup({
  types: {
    context: {} as OnboardingContext,
    events: {} as OnboardingEvent,
    emitted: {} as AuthNotice,
    output: {} as { subjects: Subject[]; result: UserResponse | null },
  },
  actors: {
    completeOnboarding: stubActor<UserResponse, CompleteOnboardingRequest>('completeOnboarding'),
  },
}).createMachine({
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
            type: 'toast.error',
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
