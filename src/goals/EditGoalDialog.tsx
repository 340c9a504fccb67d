import { useSelector } from '@xstate/react';
import { useState } from 'react';

import { goalTargetError } from '../lib/goals';
import { GOAL_TYPE_UNITS, SUBJECT_LABELS } from '../lib/labels';
import { GOALS } from '../lib/limits';
import { VALIDATION_MESSAGES } from '../lib/messages';
import { Button } from '../ui/button';
import { ConfirmDialog, FormDialog, FormDialogForm } from '../ui/confirm-dialog';
import { DialogClose, DialogFooter } from '../ui/dialog';
import { Field } from '../ui/field';
import { Input } from '../ui/input';
import { isDeleting, isEditing, isEditLocked } from './board.selectors';
import { goalName } from './format';
import type { Goal } from './goals.adapter';
import { useBoardActor } from './goals-context';

/** Edit a goal's target (at least 1); a goal over 50 % opens locked, saying why. */
export function EditGoalDialog() {
  const board = useBoardActor('EditGoalDialog');
  const open = useSelector(board, isEditing);
  const locked = useSelector(board, isEditLocked);
  const saving = useSelector(board, (s) => s.hasTag('busy'));
  const goal = useSelector(board, (s) => s.context.target);

  return (
    <FormDialog
      open={open}
      title="Edit goal"
      description={goal ? goalName(goal) : ''}
      pending={saving}
      onCancel={() => board.send({ type: 'edit.cancel' })}
    >
      {goal && locked && (
        <>
          <p role="alert" className="ay:text-sm">
            {VALIDATION_MESSAGES.goalEditLocked}
          </p>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Close</Button>
            </DialogClose>
          </DialogFooter>
        </>
      )}
      {goal && !locked && <EditForm key={goal._id} goal={goal} saving={saving} />}
    </FormDialog>
  );
}

function EditForm({ goal, saving }: { goal: Goal; saving: boolean }) {
  const board = useBoardActor('EditForm');
  const [text, setText] = useState(String(goal.target_value));
  const target = text.trim() === '' ? Number.NaN : Number(text);
  const error = goalTargetError(target, 'edit');

  return (
    <FormDialogForm
      submitLabel="Save"
      pending={saving}
      invalid={!!error}
      onSubmit={() => {
        if (!error) board.send({ type: 'edit.save', target });
      }}
    >
      <Field label={`Weekly target (${GOAL_TYPE_UNITS[goal.goal_type]})`} error={error}>
        <Input
          type="number"
          inputMode="numeric"
          min={GOALS.minTarget}
          step={1}
          value={text}
          readOnly={saving}
          onChange={(event) => setText(event.target.value)}
        />
      </Field>
    </FormDialogForm>
  );
}

/** 'Delete goal?': open while the board asks to confirm a delete. */
export function DeleteGoalDialog() {
  const board = useBoardActor('DeleteGoalDialog');
  const open = useSelector(board, isDeleting);
  const busy = useSelector(board, (s) => s.hasTag('busy'));
  const goal = useSelector(board, (s) => s.context.target);

  return (
    <ConfirmDialog
      open={open}
      title="Delete goal?"
      description={
        goal
          ? `Your ${SUBJECT_LABELS[goal.subject]} goal and its progress will be deleted.`
          : undefined
      }
      confirmLabel="Delete"
      variant="destructive"
      busy={busy}
      onConfirm={() => board.send({ type: 'delete.confirm' })}
      onCancel={() => board.send({ type: 'delete.cancel' })}
    />
  );
}
