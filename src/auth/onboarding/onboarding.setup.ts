import { setup } from 'xstate';

import { type Subject } from '../../lib/limits';
import { stubActor } from '../../lib/stub-actor';
import type { CompleteOnboardingRequest, UserResponse } from '../auth.adapter';
import { type AuthNotice } from '../auth.notices';

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

/** Types, actors (stubs until they are provided), guards and actions of `onboardingMachine`. */
export const onboardingSetup = setup({
  types: {
    context: {} as OnboardingContext,
    events: {} as OnboardingEvent,
    emitted: {} as AuthNotice,
    output: {} as { subjects: Subject[]; result: UserResponse | null },
  },
  actors: {
    completeOnboarding: stubActor<UserResponse, CompleteOnboardingRequest>('completeOnboarding'),
  },
});
