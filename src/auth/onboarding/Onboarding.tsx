import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useLayoutEffect, useRef } from 'react';

import { SUBJECT_LABELS } from '../../lib/labels';
import { GOALS, POINTS, type Subject } from '../../lib/limits';
import { Button } from '../../ui/button';
import type { Theme } from '../../ui/root';
import { SubjectIcon } from '../../ui/subject-icons';
import type { AuthAdapter, User } from '../auth.adapter';
import { AuthLayout, headingClass, useFocusOnChange } from '../AuthLayout';
import { useAuthNotices } from '../use-auth-notices';
import { onboardingLogic } from './onboarding.machine';
import { currentStep, isDone, isSaving, ONBOARDING_STEPS, stepIndex } from './onboarding.selectors';

export type OnboardingResult = {
  /** The subjects the student picked, in the order of `GOALS.subjects`. */
  subjects: Subject[];
  /** The user as the server answered, onboarding completed. */
  user: User | null;
};

export type OnboardingProps = {
  adapter: AuthAdapter;
  /** Called once onboarding is completed on the server. */
  onDone?: ((result: OnboardingResult) => void) | undefined;
  /** The student's name, for the greeting. @default no name */
  name?: string | null | undefined;
  theme?: Theme | undefined;
  className?: string | undefined;
};

/**
 * What Ayah does, as true with the offline practice helper as with a connected AI tutor: maths step by
 * step and checked answers always; explanations in the other subjects only where the school has
 * connected the full tutor.
 */
const ONBOARDING_PROMISE =
  'Ayah is your learning coach. In the chat it works through maths with you one step at a time ' +
  '(sums, fractions, equations and simple word problems), checks your answers and helps you plan ' +
  "your week's goals. Where your school has connected the full AI tutor, it explains science, " +
  'history and English too.';

/** A short first run: what Ayah does, the subjects of interest, and how goals and points work. */
export function Onboarding({ adapter, onDone, name, theme, className }: OnboardingProps) {
  const actorRef = useActorRef(onboardingLogic(adapter));
  useAuthNotices(actorRef, {});
  const state = useSelector(actorRef, (snapshot) => snapshot);
  const step = stepIndex(state);
  const shown = currentStep(state);
  const headingRef = useFocusOnChange<HTMLHeadingElement>(step);
  const legendId = useId();

  const latest = useRef(onDone);
  useLayoutEffect(() => {
    latest.current = onDone;
  });
  const done = isDone(state);
  useEffect(() => {
    if (!done) return;
    const output = actorRef.getSnapshot().output;
    latest.current?.({ subjects: output?.subjects ?? [], user: output?.result?.user ?? null });
  }, [done, actorRef]);

  const next = () => actorRef.send({ type: 'onboarding.next' });
  const back = () => actorRef.send({ type: 'onboarding.back' });

  return (
    <AuthLayout theme={theme} className={className}>
      {step >= 0 && (
        <p className="ay:text-xs ay:font-medium ay:text-muted-foreground">
          Step {step + 1} of {ONBOARDING_STEPS.length}
        </p>
      )}
      {shown === 'welcome' && (
        <section className="ay:flex ay:flex-col ay:gap-4">
          <h1 ref={headingRef} tabIndex={-1} className={headingClass}>
            {name ? `Welcome to Ayah, ${name}!` : 'Welcome to Ayah!'}
          </h1>
          <p className="ay:text-sm">{ONBOARDING_PROMISE}</p>
          <Button onClick={next}>Next</Button>
        </section>
      )}
      {shown === 'subjects' && (
        <section className="ay:flex ay:flex-col ay:gap-4">
          <h1 ref={headingRef} tabIndex={-1} className={headingClass}>
            What would you like to learn?
          </h1>
          <fieldset aria-labelledby={legendId} className="ay:flex ay:flex-col ay:gap-2">
            <legend id={legendId} className="ay:mb-2 ay:text-sm ay:text-muted-foreground">
              Pick the subjects you are interested in. You can change them any time.
            </legend>
            {GOALS.subjects.map((subject) => (
              <label
                key={subject}
                className="ay:flex ay:cursor-pointer ay:items-center ay:gap-3 ay:rounded-md ay:border ay:border-border ay:px-3 ay:py-2 ay:text-sm ay:hover:bg-muted"
              >
                <input
                  type="checkbox"
                  className="ay:size-4 ay:accent-primary"
                  checked={state.context.subjects.includes(subject)}
                  onChange={() => actorRef.send({ type: 'subject.toggle', subject })}
                />
                <SubjectIcon subject={subject} className="ay:size-5 ay:text-primary" />
                {SUBJECT_LABELS[subject]}
              </label>
            ))}
          </fieldset>
          <div className="ay:flex ay:justify-between ay:gap-2">
            <Button variant="ghost" onClick={back}>
              Back
            </Button>
            <Button onClick={next}>Next</Button>
          </div>
        </section>
      )}
      {shown === 'tour' && (
        <section className="ay:flex ay:flex-col ay:gap-4">
          <h1 ref={headingRef} tabIndex={-1} className={headingClass}>
            How Ayah helps you learn
          </h1>
          <ul className="ay:flex ay:list-disc ay:flex-col ay:gap-2 ay:pl-5 ay:text-sm">
            <li>Chat with Ayah whenever you are stuck: it explains, then checks you understood.</li>
            <li>
              Set weekly goals, such as problems solved or minutes studied, and keep a streak.
            </li>
            <li>Earn points as you learn and turn them into {POINTS.tokenName} tokens.</li>
          </ul>
          <p className="ay:text-sm ay:text-muted-foreground">
            Finishing this tour earns you your first {POINTS.onboardingAward} points.
          </p>
          <div className="ay:flex ay:justify-between ay:gap-2">
            <Button variant="ghost" onClick={back} disabled={isSaving(state)}>
              Back
            </Button>
            <Button
              loading={isSaving(state)}
              onClick={() => actorRef.send({ type: 'onboarding.complete' })}
            >
              Start learning
            </Button>
          </div>
        </section>
      )}
      {done && (
        <section className="ay:flex ay:flex-col ay:gap-2">
          <h1 ref={headingRef} tabIndex={-1} className={headingClass}>
            You are all set!
          </h1>
          <p className="ay:text-sm ay:text-muted-foreground">Taking you to Ayah…</p>
        </section>
      )}
    </AuthLayout>
  );
}
