import { setup } from 'xstate';

import { type Subject } from '../../lib/limits';
import { stubActor } from '../../lib/stub-actor';
import type { CompleteOnboardingRequest, UserResponse } from '../auth.adapter';
import { type AuthNotice } from '../auth.notices';
import type { OnboardingContext, OnboardingEvent } from '../auth.types';

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
