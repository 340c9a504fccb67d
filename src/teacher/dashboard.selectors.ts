import type { SnapshotFrom } from 'xstate';

import type { dashboardMachine } from './dashboard.machine';
import type { DashboardStudent } from './teacher.adapter';
import type { SortKey } from './teacher.types';

type Snapshot = SnapshotFrom<typeof dashboardMachine>;

export const isLoading = (s: Snapshot) => s.hasTag('loading');
export const hasFailed = (s: Snapshot) => s.matches('failed');
export const teachesNoClass = (s: Snapshot) => s.matches('noClasses');
export const isReady = (s: Snapshot) => s.matches('ready');

const value: Record<SortKey, (row: DashboardStudent) => string | number> = {
  name: (row) => row.name.toLocaleLowerCase(),
  streak: (row) => row.streak,
  completed: (row) => row.completed_this_week,
  questions: (row) => row.questions_this_week,
  last_active: (row) => (row.last_active ? Date.parse(row.last_active) : 0),
};

/** The rows the table shows: filtered, then sorted (ties by name). */
export function visibleStudents(s: Snapshot): DashboardStudent[] {
  const { data, filter, sort } = s.context;
  const rows = (data?.students ?? []).filter((row) =>
    filter === 'no_goal'
      ? row.goals.length === 0
      : filter === 'inactive'
        ? row.inactive_7_days
        : true,
  );
  const of = value[sort.key];
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = of(a);
    const y = of(b);
    if (x < y) return -sign;
    if (x > y) return sign;
    return a.name.localeCompare(b.name);
  });
}
