import { useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';

import { progressEntryError } from '../lib/goals';
import { GOALS, type GoalType } from '../lib/limits';
import { Button } from '../ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../ui/dialog';
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
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !saving) board.send({ type: 'progress.cancel' });
      }}
    >
      <DialogContent onEscapeKeyDown={(event) => saving && event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Log progress</DialogTitle>
          <DialogDescription>{goal ? goalName(goal) : ''}</DialogDescription>
        </DialogHeader>
        {goal && <ProgressForm key={goal._id} goal={goal} saving={saving} />}
      </DialogContent>
    </Dialog>
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

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!error) board.send({ type: 'progress.save', ...entry });
  }

  return (
    <form onSubmit={submit} className="ay:grid ay:gap-4" noValidate>
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
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={saving}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" loading={saving}>
          Log progress
        </Button>
      </DialogFooter>
    </form>
  );
}
