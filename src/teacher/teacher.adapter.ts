import type { AlertCategory, AlertStatus } from '../lib/safety';
import type { CallOptions } from '../wire';

/** A class the caller teaches (GET /classes). */
export type TaughtClass = {
  id: string;
  name: string;
  source: 'lti' | 'portal';
  role: 'learner' | 'instructor' | 'administrator';
  students: number;
};

export type ClassList = {
  classes: TaughtClass[];
  /** The caller is one of the school's safety contacts: they see every class's alerts. */
  safety_contact: boolean;
};

/** One student's week, as the dashboard shows it: no chat text. */
export type DashboardStudent = {
  id: string;
  name: string;
  goals: {
    id: string;
    subject: string;
    goal_type: string;
    target_value: number;
    progress: number;
  }[];
  streak: number;
  completed_this_week: number;
  questions_this_week: number;
  /** ISO time, or null when never seen. */
  last_active: string | null;
  inactive_7_days: boolean;
};

export type ClassDashboardData = {
  class: { id: string; name: string; role: TaughtClass['role'] };
  students: DashboardStudent[];
};

export type AlertSummary = {
  id: string;
  class: { id: string; name: string };
  /** `id` null once the student deleted their account ('Deleted account'). */
  student: { id: string | null; name: string };
  category: AlertCategory;
  categories: string[];
  severity: 'high' | 'medium' | 'low';
  status: AlertStatus;
  flags: number;
  note: string | null;
  created_at: string;
  last_flag_at: string;
  unread: boolean;
};

export type AlertList = { alerts: AlertSummary[]; unread: number };

export type AlertDetail = AlertSummary & {
  messages: { message: string; answer: string; categories: string[]; created_at: string }[];
  events: { actor: string; action: string; note: string | null; created_at: string }[];
  deliveries: {
    recipient: string;
    status: 'pending' | 'sent' | 'failed';
    attempts: number;
    last_error: string | null;
    sent_at: string | null;
  }[];
};

/** The teacher's view of the backend (`/api/v1/classes`, `/api/v1/alerts`). */
export interface TeacherAdapter {
  classes(options?: CallOptions): Promise<ClassList>;
  dashboard(classId: string, options?: CallOptions): Promise<ClassDashboardData>;
  alerts(query: { classId?: string }, options?: CallOptions): Promise<AlertList>;
  unreadAlerts(options?: CallOptions): Promise<{ unread: number }>;
  alert(alertId: string, options?: CallOptions): Promise<AlertDetail>;
  acknowledge(alertId: string, options?: CallOptions): Promise<AlertDetail>;
  resolve(alertId: string, note: string, options?: CallOptions): Promise<AlertDetail>;
  markFalsePositive(alertId: string, note: string, options?: CallOptions): Promise<AlertDetail>;
}
