import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useState } from 'react';

import { classCsv } from '../lib/class-csv';
import { cn } from '../lib/cn';
import { Button } from '../ui/button';
import { Progress } from '../ui/progress';
import { AyahRoot, type Theme } from '../ui/root';
import { LoadingStatus } from '../ui/skeleton';
import { dashboardLogic } from './dashboard.machine';
import {
  hasFailed,
  isLoading,
  isReady,
  teachesNoClass,
  visibleStudents,
} from './dashboard.selectors';
import { LoadFailed } from './LoadFailed';
import type { TeacherAdapter } from './teacher.adapter';
import type { SortKey, StudentFilter } from './teacher.types';

export interface ClassDashboardProps {
  /** The backend: `createHttpApi(…).teacher`, or a fake. Read once, on mount. */
  adapter: TeacherAdapter;
  /** The class to open first (e.g. from `/teach?class=…`); @default the first class taught */
  classId?: string | null;
  /** Called when the teacher picks another class (a host keeps it in the URL). */
  onClassChange?: (classId: string) => void;
  /** @default the enclosing Ayah root's theme, else 'light' */
  theme?: Theme;
  className?: string;
}

const COLUMNS: { key: SortKey | null; label: string }[] = [
  { key: 'name', label: 'Student' },
  { key: null, label: 'Goals this week' },
  { key: 'streak', label: 'Streak' },
  { key: 'completed', label: 'Completed this week' },
  { key: 'questions', label: 'Tutor questions this week' },
  { key: 'last_active', label: 'Last active' },
];

const FILTERS: { value: StudentFilter; label: string }[] = [
  { value: 'all', label: 'All students' },
  { value: 'no_goal', label: 'No goal this week' },
  { value: 'inactive', label: 'Not active for 7 days' },
];

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : 'Never';

/** Saves `text` as a file in the browser. */
function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * A teacher's view of a class: one row per student with this week's goals, streak, completions,
 * tutor questions and last activity — never chat text. Sort by a column, filter, export as CSV.
 */
export function ClassDashboard({
  adapter,
  classId,
  onClassChange,
  theme,
  className,
}: ClassDashboardProps) {
  const [logic] = useState(() => dashboardLogic(adapter));
  const actor = useActorRef(logic, { input: { classId } });
  const state = useSelector(actor, (s) => s);
  const headingId = useId();
  const pickId = useId();
  const filterId = useId();
  const { classes, data, sort, filter } = state.context;
  const rows = visibleStudents(state);

  useEffect(() => {
    if (classId && classId !== state.context.classId && isReady(state))
      actor.send({ type: 'class.pick', classId });
    // Only a new prop from the host moves the dashboard.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [classId]);

  return (
    <AyahRoot
      theme={theme}
      data-slot="class-dashboard"
      aria-labelledby={headingId}
      className={cn('ay:flex ay:w-full ay:flex-col ay:gap-4', className)}
    >
      <div className="ay:flex ay:flex-wrap ay:items-end ay:justify-between ay:gap-3">
        <h2 id={headingId} className="ay:text-xl ay:font-semibold">
          {data ? data.class.name : 'Your classes'}
        </h2>
        {classes.length > 0 && (
          <div className="ay:flex ay:flex-wrap ay:items-end ay:gap-3">
            <label htmlFor={pickId} className="ay:flex ay:flex-col ay:gap-1 ay:text-sm">
              Class
              <select
                id={pickId}
                className="ay:rounded-md ay:border ay:border-border ay:bg-background ay:px-2 ay:py-1.5"
                value={state.context.classId ?? ''}
                disabled={isLoading(state)}
                onChange={(e) => {
                  actor.send({ type: 'class.pick', classId: e.target.value });
                  onClassChange?.(e.target.value);
                }}
              >
                {classes.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
            <label htmlFor={filterId} className="ay:flex ay:flex-col ay:gap-1 ay:text-sm">
              Show
              <select
                id={filterId}
                className="ay:rounded-md ay:border ay:border-border ay:bg-background ay:px-2 ay:py-1.5"
                value={filter}
                onChange={(e) =>
                  actor.send({ type: 'table.filter', filter: e.target.value as StudentFilter })
                }
              >
                {FILTERS.map((f) => (
                  <option key={f.value} value={f.value}>
                    {f.label}
                  </option>
                ))}
              </select>
            </label>
            <Button
              variant="outline"
              disabled={!data}
              onClick={() => data && download(`${data.class.name}.csv`, classCsv(rows))}
            >
              Export CSV
            </Button>
          </div>
        )}
      </div>

      {isLoading(state) && <LoadingStatus label="Loading the class…" />}
      {teachesNoClass(state) && (
        <p>You do not teach a class in Ayah yet. Open Ayah from your course to add it.</p>
      )}
      {hasFailed(state) && (
        <LoadFailed onRetry={() => actor.send({ type: 'dashboard.retry' })}>
          The class could not be loaded.
        </LoadFailed>
      )}
      {isReady(state) && data && data.students.length === 0 && (
        <p>No students yet: they appear here once they open Ayah from the course.</p>
      )}
      {isReady(state) && data && data.students.length > 0 && (
        <div className="ay:overflow-x-auto">
          <table className="ay:w-full ay:border-collapse ay:text-left ay:text-sm">
            <caption className="ay:sr-only">
              Students of {data.class.name}, {rows.length} shown
            </caption>
            <thead>
              <tr>
                {COLUMNS.map((column) => (
                  <th
                    key={column.label}
                    scope="col"
                    className="ay:border-b ay:border-border ay:px-2 ay:py-2 ay:font-medium"
                    aria-sort={column.key && sort.key === column.key ? sort.direction : undefined}
                  >
                    {column.key ? (
                      <button
                        type="button"
                        className="ay:font-medium ay:underline-offset-2 ay:hover:underline"
                        onClick={() => actor.send({ type: 'table.sort', key: column.key! })}
                      >
                        {column.label}
                      </button>
                    ) : (
                      column.label
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className="ay:border-b ay:border-border">
                  <th scope="row" className="ay:px-2 ay:py-2 ay:font-medium">
                    {row.name}
                  </th>
                  <td className="ay:px-2 ay:py-2">
                    {row.goals.length === 0 ? (
                      'No goal'
                    ) : (
                      <ul className="ay:flex ay:min-w-40 ay:flex-col ay:gap-1">
                        {row.goals.map((goal) => (
                          <li key={goal.id} className="ay:flex ay:flex-col ay:gap-0.5">
                            <span>
                              {goal.subject}: {Math.round(goal.progress)}%
                            </span>
                            <Progress
                              size="sm"
                              value={goal.progress}
                              aria-label={`${row.name}, ${goal.subject} ${goal.goal_type.replace(/_/g, ' ')}`}
                            />
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className="ay:px-2 ay:py-2">{row.streak} days</td>
                  <td className="ay:px-2 ay:py-2">{row.completed_this_week}</td>
                  <td className="ay:px-2 ay:py-2">{row.questions_this_week}</td>
                  <td className="ay:px-2 ay:py-2">{when(row.last_active)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length === 0 && <p className="ay:py-3">No student matches this filter.</p>}
        </div>
      )}
    </AyahRoot>
  );
}
