import { useSelector } from '@xstate/react';

import { cn } from '../lib/cn';
import { recommendedRange } from '../lib/goals';
import { GOAL_TYPE_LABELS, GOAL_TYPE_UNITS, SUBJECT_LABELS } from '../lib/labels';
import { GOALS, type GoalType, type Subject } from '../lib/limits';
import { Button } from '../ui/button';
import { Field } from '../ui/field';
import { Input } from '../ui/input';
import { SubjectIcon } from '../ui/subject-icons';
import { useWizardActor } from './goals-context';
import { suggestionsFor } from './suggestions';
import { wizardTargetError } from './wizard.setup';

const choice = cn(
  'ay:flex ay:w-full ay:items-start ay:gap-3 ay:rounded-lg ay:border ay:border-border ay:bg-background',
  'ay:p-3 ay:text-start ay:transition-colors ay:hover:bg-muted',
);

/** The suggestion cards (middle-school level), the student's interests first. */
export function SuggestionCards({
  interests,
  onPick,
}: {
  interests: Subject[];
  onPick: (subject: Subject) => void;
}) {
  return (
    <ul aria-label="Suggested goals" className="ay:grid ay:gap-2 ay:@lg:grid-cols-3">
      {suggestionsFor(interests).map((card) => {
        return (
          <li key={card.subject}>
            <button type="button" className={choice} onClick={() => onPick(card.subject)}>
              <SubjectIcon subject={card.subject} className="ay:mt-0.5 ay:size-5 ay:text-primary" />
              <span className="ay:flex ay:flex-col ay:gap-0.5">
                <span className="ay:text-sm ay:font-medium">{card.title}</span>
                <span className="ay:text-xs ay:text-muted-foreground">
                  {SUBJECT_LABELS[card.subject]}: {card.description}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** Step 1: suggestion cards, or the full subject list behind the custom-goal toggle. */
export function SubjectStep({ interests }: { interests: Subject[] }) {
  const wizard = useWizardActor('SubjectStep');
  const custom = useSelector(wizard, (s) => s.context.custom);
  const subject = useSelector(wizard, (s) => s.context.subject);

  return (
    <div className="ay:flex ay:flex-col ay:gap-3">
      {custom ? (
        <fieldset className="ay:flex ay:flex-col ay:gap-2">
          <legend className="ay:mb-2 ay:text-sm ay:font-medium">Subject</legend>
          {GOALS.subjects.map((s) => {
            return (
              <label key={s} className={cn(choice, 'ay:items-center ay:cursor-pointer')}>
                <input
                  type="radio"
                  name="goal-subject"
                  value={s}
                  checked={subject === s}
                  onChange={() => wizard.send({ type: 'subject.select', subject: s })}
                  className="ay:accent-primary"
                />
                <SubjectIcon subject={s} className="ay:text-primary" />
                <span className="ay:text-sm ay:font-medium">{SUBJECT_LABELS[s]}</span>
              </label>
            );
          })}
        </fieldset>
      ) : (
        <SuggestionCards
          interests={interests}
          onPick={(s) => wizard.send({ type: 'wizard.suggest', subject: s })}
        />
      )}
      <Button
        variant="link"
        className="ay:self-start ay:px-0"
        aria-pressed={custom}
        onClick={() => wizard.send({ type: 'wizard.custom' })}
      >
        {custom ? 'Show suggestions' : 'Create a custom goal'}
      </Button>
    </div>
  );
}

const TYPE_HINTS: Readonly<Record<GoalType, string>> = {
  problems_solved: 'Count the problems you solve.',
  study_time: 'Count the minutes you study.',
  topics_learned: 'Count the topics you learn.',
};

/** Step 2: the goal type; choosing one moves on to the target. */
export function GoalTypeStep() {
  const wizard = useWizardActor('GoalTypeStep');
  return (
    <ul aria-label="Goal type" className="ay:flex ay:flex-col ay:gap-2">
      {GOALS.goalTypes.map((goalType) => (
        <li key={goalType}>
          <button
            type="button"
            className={choice}
            onClick={() => wizard.send({ type: 'type.select', goalType })}
          >
            <span className="ay:flex ay:flex-col ay:gap-0.5">
              <span className="ay:text-sm ay:font-medium">{GOAL_TYPE_LABELS[goalType]}</span>
              <span className="ay:text-xs ay:text-muted-foreground">{TYPE_HINTS[goalType]}</span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Step 3: the weekly target, its quick picks and the recommended range beside the field. */
export function TargetStep() {
  const wizard = useWizardActor('TargetStep');
  const goalType = useSelector(wizard, (s) => s.context.goalType) ?? 'problems_solved';
  const target = useSelector(wizard, (s) => s.context.target);
  const error = wizardTargetError({ target });

  return (
    <div className="ay:flex ay:flex-col ay:gap-3">
      <Field
        label={`Weekly target (${GOAL_TYPE_UNITS[goalType]})`}
        description={recommendedRange(goalType)}
        error={error}
      >
        <Input
          type="number"
          inputMode="numeric"
          min={GOALS.minTarget}
          max={GOALS.maxTarget}
          step={1}
          value={target}
          onChange={(event) => wizard.send({ type: 'target.change', value: event.target.value })}
        />
      </Field>
      <div role="group" aria-label="Quick picks" className="ay:flex ay:flex-wrap ay:gap-2">
        {GOALS.quickPicks[goalType].map((pick) => (
          <Button
            key={pick}
            size="sm"
            variant={target === String(pick) ? 'default' : 'outline'}
            aria-pressed={target === String(pick)}
            onClick={() => wizard.send({ type: 'target.pick', value: pick })}
          >
            {pick}
          </Button>
        ))}
      </div>
    </div>
  );
}

/** Step 4: what will be created, and the server's refusal when there was one. */
export function ReviewStep() {
  const wizard = useWizardActor('ReviewStep');
  const { subject, goalType, target, error } = useSelector(wizard, (s) => s.context);
  if (!subject || !goalType) return null;
  return (
    <div className="ay:flex ay:flex-col ay:gap-3">
      <dl className="ay:grid ay:grid-cols-[auto_1fr] ay:gap-x-4 ay:gap-y-2 ay:text-sm">
        <dt className="ay:text-muted-foreground">Subject</dt>
        <dd className="ay:font-medium">{SUBJECT_LABELS[subject]}</dd>
        <dt className="ay:text-muted-foreground">Goal type</dt>
        <dd className="ay:font-medium">{GOAL_TYPE_LABELS[goalType]}</dd>
        <dt className="ay:text-muted-foreground">Target</dt>
        <dd className="ay:font-medium">
          {target.trim()} {GOAL_TYPE_UNITS[goalType]} per week
        </dd>
      </dl>
      {error && (
        <p
          role="alert"
          className="ay:rounded-md ay:border ay:border-destructive ay:px-3 ay:py-2 ay:text-sm ay:text-destructive"
        >
          {error}
        </p>
      )}
    </div>
  );
}
