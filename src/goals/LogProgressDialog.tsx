import { useSelector } from '@xstate/react';
import { useState } from 'react';

import { progressEntryError } from '../lib/goals';
import { GOALS, type GoalType } from '../lib/limits';
import { FormDialog, FormDialogForm } from '../ui/confirm-dialog';
import { Field } from '../ui/field';
import { Input } from '../ui/input';
import { isLogging } from './board.selectors';
import { goalName } from './format';
import type { Goal } from './goals.adapter';
import { useBoardActor } from './goals-context';

const VALUE_LABELS: Readonly<Record<GoalType, string>> = {
  problems_solved: 'Problems solved',
  study_time: 'Minutes studied',
  topics_learned: 'Topics learned',
};

/** Log progress on a goal (`POST /goal/{id}/progress`): the value, an optional topic and minutes. */
export function LogProgressDialog() {
  const board = useBoardActor('LogProgressDialog');
  const open = useSelector(board, isLogging);
  const saving = useSelector(board, (s) => s.hasTag('busy'));
  const goal = useSelector(board, (s) => s.context.target);

  return (
    <FormDialog
      open={open}
      title="Log progress"
      description={goal ? goalName(goal) : ''}
      pending={saving}
      onCancel={() => board.send({ type: 'progress.cancel' })}
    >
      {goal && <ProgressForm key={goal._id} goal={goal} saving={saving} />}
    </FormDialog>
  );
}

const numberOrUndefined = (text: string) => (text.trim() === '' ? undefined : Number(text));

function ProgressForm({ goal, saving }: { goal: Goal; saving: boolean }) {
  const board = useBoardActor('ProgressForm');
  const [value, setValue] = useState('1');
  const [topic, setTopic] = useState('');
  const [minutes, setMinutes] = useState('');
  const [touched, setTouched] = useState(false);
  const entry = {
    value: value.trim() === '' ? Number.NaN : Number(value),
    topic: topic.trim() || undefined,
    minutes: goal.goal_type === 'study_time' ? undefined : numberOrUndefined(minutes),
  };
  const error = progressEntryError(entry);

  function submit() {
    setTouched(true);
    if (!error) board.send({ type: 'progress.save', ...entry });
  }

  return (
    <FormDialogForm submitLabel="Log progress" pending={saving} noValidate onSubmit={submit}>
      <Field label={VALUE_LABELS[goal.goal_type]} error={touched ? error : undefined} required>
        <Input
          type="number"
          inputMode="numeric"
          min={1}
          max={GOALS.maxTarget}
          step={1}
          value={value}
          readOnly={saving}
          onChange={(event) => setValue(event.target.value)}
        />
      </Field>
      <Field label="Topic (optional)">
        <Input
          value={topic}
          maxLength={GOALS.topicMaxLength}
          placeholder="e.g. Fractions"
          readOnly={saving}
          onChange={(event) => setTopic(event.target.value)}
        />
      </Field>
      {goal.goal_type !== 'study_time' && (
        <Field label="Minutes spent (optional)">
          <Input
            type="number"
            inputMode="numeric"
            min={0}
            max={GOALS.maxMinutesPerEntry}
            step={1}
            value={minutes}
            readOnly={saving}
            onChange={(event) => setMinutes(event.target.value)}
          />
        </Field>
      )}
    </FormDialogForm>
  );
}
