/*
 * The teacher's view in types: what its machines hold (context), hear (events) and start from (input).
 * The wire shapes they show stay in `teacher.adapter.ts`.
 */
import type { AlertDetail, AlertList, ClassDashboardData, ClassList } from './teacher.adapter';

// The class dashboard (dashboard.machine.ts).

export type SortKey = 'name' | 'streak' | 'completed' | 'questions' | 'last_active';

export type StudentFilter = 'all' | 'no_goal' | 'inactive';

export type DashboardContext = {
  classes: ClassList['classes'];
  classId: string | null;
  data: ClassDashboardData | null;
  sort: { key: SortKey; direction: 'ascending' | 'descending' };
  filter: StudentFilter;
};

export type DashboardEvent =
  | { type: 'class.pick'; classId: string }
  | { type: 'table.sort'; key: SortKey }
  | { type: 'table.filter'; filter: StudentFilter }
  | { type: 'dashboard.retry' };

// The safety alerts (alerts.machine.ts).

export type AlertAction =
  | { type: 'alert.acknowledge' }
  | { type: 'alert.resolve'; note: string }
  | { type: 'alert.falsePositive'; note: string };

export type AlertsContext = {
  classId: string | null;
  alerts: AlertList['alerts'];
  unread: number;
  /** The alert opened (its detail), or the one asked for by a link until it is loaded. */
  openId: string | null;
  detail: AlertDetail | null;
  /** The last action failed (the detail stays as it was). */
  actionFailed: boolean;
};

export type AlertsEvent =
  | { type: 'alert.open'; alertId: string }
  | { type: 'alert.close' }
  | { type: 'alerts.retry' }
  | AlertAction;

export type AlertsInput = {
  classId?: string | null | undefined;
  alertId?: string | null | undefined;
};
