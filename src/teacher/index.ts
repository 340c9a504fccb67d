// The teacher's view (`ayah-coach/teacher`): a class dashboard and the safety alerts (issue 24).
export type * from './teacher.adapter';
export { ClassDashboard, type ClassDashboardProps } from './ClassDashboard';
export { SafetyAlerts, type SafetyAlertsProps } from './SafetyAlerts';
export { dashboardLogic, dashboardMachine } from './dashboard.machine';
export type { DashboardContext, DashboardEvent, SortKey, StudentFilter } from './dashboard.setup';
export { alertsLogic, alertsMachine } from './alerts.machine';
export type { AlertsContext, AlertsEvent, AlertsInput } from './alerts.setup';
export { teacherHttp } from './teacher.http';
