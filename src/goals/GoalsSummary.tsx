import { useSelector } from '@xstate/react';
import { type ReactNode, useId } from 'react';

import { averageProgress } from '../lib/goals';
import { GOAL_TYPE_UNITS, SUBJECT_LABELS } from '../lib/labels';
import { SubjectIcon } from '../ui/subject-icons';
import { shortDate } from './format';
import { useBoardActor } from './goals-context';
import { FlameIcon, TargetIcon, TrophyIcon } from './goals-icons';

/** The four stats: Active Goals, Avg Progress, This Week (completed) and Day Streak. */
export function GoalStats() {
  const board = useBoardActor('GoalStats');
  const goals = useSelector(board, (s) => s.context.goals);
  const completed = useSelector(board, (s) => s.context.completedInWeek);
  const streak = useSelector(board, (s) => s.context.streak);

  return (
    <dl className="ay:grid ay:grid-cols-2 ay:gap-2 ay:@xl:grid-cols-4">
      <Stat label="Active Goals" value={goals.length} icon={<TargetIcon />} />
      <Stat label="Avg Progress" value={`${averageProgress(goals)}%`} icon={<ChartGlyph />} />
      <Stat label="This Week" value={completed} icon={<TrophyIcon />} />
      <Stat label="Day Streak" value={streak} icon={<FlameIcon />} />
    </dl>
  );
}

function Stat({ label, value, icon }: { label: string; value: ReactNode; icon: ReactNode }) {
  return (
    <div
      data-slot="goal-stat"
      className="ay:flex ay:flex-col ay:gap-1 ay:rounded-lg ay:border ay:border-border ay:bg-surface ay:p-3"
    >
      <dt className="ay:flex ay:items-center ay:gap-1.5 ay:text-xs ay:text-muted-foreground">
        {icon}
        {label}
      </dt>
      <dd className="ay:text-2xl ay:font-semibold ay:tabular-nums">{value}</dd>
    </div>
  );
}

function ChartGlyph() {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className="ay:size-4 ay:fill-none ay:stroke-current ay:stroke-2"
      strokeLinecap="round"
    >
      <path d="M3 3v18h18M7 15l4-4 3 3 5-6" />
    </svg>
  );
}

/** Recent Activity: the 5 newest pieces of progress over all goals. */
export function RecentActivity() {
  const board = useBoardActor('RecentActivity');
  const activities = useSelector(board, (s) => s.context.activities);
  const headingId = useId();

  return (
    <section aria-labelledby={headingId} className="ay:flex ay:flex-col ay:gap-2">
      <h3 id={headingId} className="ay:text-base ay:font-semibold">
        Recent Activity
      </h3>
      {activities.length === 0 ? (
        <p className="ay:text-sm ay:text-muted-foreground">No activity yet this week.</p>
      ) : (
        <ul className="ay:flex ay:flex-col ay:gap-2">
          {activities.map((item, index) => {
            return (
              <li
                key={`${item.updated_at}-${index}`}
                className="ay:flex ay:items-center ay:gap-3 ay:rounded-md ay:bg-muted ay:px-3 ay:py-2 ay:text-sm"
              >
                <SubjectIcon subject={item.goal.subject} className="ay:text-muted-foreground" />
                <span className="ay:min-w-0 ay:flex-1">
                  <span className="ay:font-medium">
                    +{item.value} {GOAL_TYPE_UNITS[item.goal.goal_type]}
                  </span>{' '}
                  in {SUBJECT_LABELS[item.goal.subject]}
                  {item.topic && <span className="ay:text-muted-foreground"> · {item.topic}</span>}
                </span>
                <time dateTime={item.updated_at} className="ay:text-xs ay:text-muted-foreground">
                  {shortDate(item.updated_at)}
                </time>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
