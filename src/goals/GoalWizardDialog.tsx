import { useSelector } from '@xstate/react';

import type { Subject } from '../lib/limits';
import { Button } from '../ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../ui/dialog';
import { isCreating } from './board.selectors';
import { useBoardActor, useWizardActor } from './goals-context';
import { GoalTypeStep, ReviewStep, SubjectStep, TargetStep } from './WizardSteps';

const STEPS = { subject: 1, goalType: 2, target: 3, review: 4, creating: 4, refused: 4 } as const;
const STEP_NAMES = ['Subject', 'Goal type', 'Target', 'Review'] as const;

/** The create wizard in a dialog: open while the board says so; its steps read the wizard machine. */
export function GoalWizardDialog({ interests }: { interests: Subject[] }) {
  const board = useBoardActor('GoalWizardDialog');
  const wizard = useWizardActor('GoalWizardDialog');
  const open = useSelector(board, isCreating);
  const state = useSelector(wizard, (s) => s.value as keyof typeof STEPS);
  const creating = useSelector(wizard, (s) => s.hasTag('busy'));
  const canNext = useSelector(wizard, (s) => s.can({ type: 'wizard.next' }));
  const step = STEPS[state];

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) wizard.send({ type: 'wizard.cancel' });
      }}
    >
      <DialogContent
        onEscapeKeyDown={(event) => creating && event.preventDefault()}
        onPointerDownOutside={(event) => event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>Create a new goal</DialogTitle>
          <DialogDescription>
            Step {step} of 4: {STEP_NAMES[step - 1]}
          </DialogDescription>
        </DialogHeader>
        <ol aria-hidden="true" className="ay:flex ay:gap-1">
          {STEP_NAMES.map((name, index) => (
            <li
              key={name}
              className={
                index < step
                  ? 'ay:h-1 ay:flex-1 ay:rounded-full ay:bg-primary'
                  : 'ay:h-1 ay:flex-1 ay:rounded-full ay:bg-muted'
              }
            />
          ))}
        </ol>
        {state === 'subject' && <SubjectStep interests={interests} />}
        {state === 'goalType' && <GoalTypeStep />}
        {state === 'target' && <TargetStep />}
        {step === 4 && <ReviewStep />}
        <DialogFooter>
          <Button
            variant="outline"
            disabled={creating}
            onClick={() => wizard.send({ type: 'wizard.cancel' })}
          >
            Cancel
          </Button>
          {step > 1 && (
            <Button
              variant="outline"
              disabled={creating}
              onClick={() => wizard.send({ type: 'wizard.back' })}
            >
              Back
            </Button>
          )}
          {(state === 'subject' || state === 'target') && (
            <Button disabled={!canNext} onClick={() => wizard.send({ type: 'wizard.next' })}>
              Next
            </Button>
          )}
          {step === 4 && (
            <Button loading={creating} onClick={() => wizard.send({ type: 'wizard.create' })}>
              Create goal
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
