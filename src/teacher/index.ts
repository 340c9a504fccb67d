// The teacher's view (`ayah-coach/teacher`): a class dashboard and the safety alerts (issue 24).
export { alertsLogic, alertsMachine } from './alerts.machine';
export { ClassDashboard, type ClassDashboardProps } from './ClassDashboard';
export { dashboardLogic, dashboardMachine } from './dashboard.machine';
export { SafetyAlerts, type SafetyAlertsProps } from './SafetyAlerts';
export type * from './teacher.adapter';
export { teacherHttp } from './teacher.http';
export type {
  AlertsContext,
  AlertsEvent,
  AlertsInput,
  DashboardContext,
  DashboardEvent,
  SortKey,
  StudentFilter,
} from './teacher.types';
