import { useSelector } from '@xstate/react';

import { formatStudyHours } from '../lib/goals';
import { GOAL_TYPE_LABELS, SUBJECT_LABELS } from '../lib/labels';
import { clampPercent } from '../lib/progress';
import { Button } from '../ui/button';
import { PencilIcon, TrashIcon } from '../ui/icons';
import { Progress } from '../ui/progress';
import { SubjectIcon } from '../ui/subject-icons';
import { noDialogOpen } from './board.selectors';
import { goalName, perWeek, shortDate } from './format';
import type { Goal } from './goals.adapter';
import { useBoardActor } from './goals-context';
import { HistoryIcon } from './goals-icons';

/** One goal: subject, type, target per week, the progress bar, study time, latest progress, actions. */
export function GoalCard({ goal }: { goal: Goal }) {
  const board = useBoardActor('GoalCard');
  const idle = useSelector(board, noDialogOpen);
  const percent = clampPercent(goal.total_progress);
  const name = goalName(goal);
  const send = (type: 'goal.edit' | 'goal.delete' | 'goal.history' | 'goal.log') =>
    board.send({ type, goalId: goal._id });

  return (
    <article
      data-slot="goal-card"
      aria-label={name}
      className="ay:flex ay:h-full ay:flex-col ay:gap-3 ay:rounded-lg ay:border ay:border-border ay:bg-surface ay:p-4"
    >
      <div className="ay:flex ay:items-start ay:gap-3">
        <span className="ay:flex ay:size-10 ay:shrink-0 ay:items-center ay:justify-center ay:rounded-full ay:bg-secondary ay:text-secondary-foreground">
          <SubjectIcon subject={goal.subject} className="ay:size-5" />
        </span>
        <div className="ay:min-w-0 ay:flex-1">
          <h3 className="ay:text-base ay:font-semibold">{SUBJECT_LABELS[goal.subject]}</h3>
          <p className="ay:text-sm ay:text-muted-foreground">{GOAL_TYPE_LABELS[goal.goal_type]}</p>
        </div>
        <p className="ay:text-lg ay:font-semibold ay:tabular-nums">{Math.round(percent)}%</p>
      </div>
      <p className="ay:text-sm">
        Target: <span className="ay:font-medium">{perWeek(goal)}</span>
      </p>
      <Progress value={percent} aria-label={`${name} progress`} />
      <div className="ay:flex ay:flex-col ay:gap-1 ay:text-xs ay:text-muted-foreground">
        {goal.goal_type === 'study_time' && (
          <p>Study time: {formatStudyHours((percent / 100) * goal.target_value)} hours</p>
        )}
        <p>
          {goal.latest_progress
            ? `Latest: +${goal.latest_progress.value} on ${shortDate(goal.latest_progress.created_at)}`
            : 'No progress yet'}
        </p>
      </div>
      <div className="ay:mt-auto ay:flex ay:flex-wrap ay:items-center ay:gap-1">
        <Button size="sm" variant="secondary" disabled={!idle} onClick={() => send('goal.log')}>
          Log progress
        </Button>
        <span className="ay:flex-1" />
        <Button
          size="icon"
          variant="ghost"
          className="ay:size-8"
          aria-label={`Edit ${name} goal`}
          disabled={!idle}
          onClick={() => send('goal.edit')}
        >
          <PencilIcon />
        </Button>
        <Button
          size="icon"
          variant="ghost"
          className="ay:size-8"
          aria-label={`Progress history of ${name} goal`}
          disabled={!idle}
          onClick={() => send('goal.history')}
        >
          <HistoryIcon />
        </Button>
        <Button
          size="icon"
          variant="ghost"
          className="ay:size-8"
          aria-label={`Delete ${name} goal`}
          disabled={!idle}
          onClick={() => send('goal.delete')}
        >
          <TrashIcon />
        </Button>
      </div>
    </article>
  );
}
