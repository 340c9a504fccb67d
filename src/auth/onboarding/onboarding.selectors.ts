import type { SnapshotFrom } from 'xstate';

import type { onboardingMachine } from './onboarding.machine';

/** What the onboarding view reads from its machine, so it names no state. */
type OnboardingSnapshot = Pick<SnapshotFrom<typeof onboardingMachine>, 'matches' | 'hasTag'>;

/** The steps in order, as the progress shows them. */
export const ONBOARDING_STEPS = ['welcome', 'subjects', 'tour'] as const;

export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/** The step on screen; completing still shows the tour. -1 once done. */
export const stepIndex = (state: OnboardingSnapshot) =>
  ONBOARDING_STEPS.findIndex((key) => state.matches(key));

/** The step on screen, by name (the tour while completing), or null once done. */
export const currentStep = (state: OnboardingSnapshot): OnboardingStep | null =>
  state.matches('completing') ? 'tour' : (ONBOARDING_STEPS[stepIndex(state)] ?? null);

/** Onboarding is completed. */
export const isDone = (state: OnboardingSnapshot) => state.matches('done');

/** The completion is being saved. */
export const isSaving = (state: OnboardingSnapshot) => state.hasTag('busy');
