/**
 * A fake teacher adapter for machine tests, component tests and stories: a class "Maths 7B" with
 * three students, and one self-harm alert. Actions change the fake's alert as the server would.
 * No test framework is imported, so stories and tests share it.
 */
import type {
  AlertDetail,
  ClassDashboardData,
  DashboardStudent,
  TeacherAdapter,
} from '../src/teacher/teacher.adapter';

export const sampleStudents: DashboardStudent[] = [
  {
    id: 's-ada',
    name: 'Ada Lovelace',
    goals: [
      { id: 'g1', subject: 'math', goal_type: 'problems_solved', target_value: 10, progress: 40 },
      { id: 'g2', subject: 'science', goal_type: 'study_time', target_value: 60, progress: 100 },
    ],
    streak: 4,
    completed_this_week: 1,
    questions_this_week: 7,
    last_active: '2026-03-12T10:00:00Z',
    inactive_7_days: false,
  },
  {
    id: 's-ben',
    name: 'Ben Okafor',
    goals: [],
    streak: 0,
    completed_this_week: 0,
    questions_this_week: 2,
    last_active: '2026-03-11T09:00:00Z',
    inactive_7_days: false,
  },
  {
    id: 's-cai',
    name: 'Cai Chen',
    goals: [
      { id: 'g3', subject: 'english', goal_type: 'topics_learned', target_value: 3, progress: 0 },
    ],
    streak: 0,
    completed_this_week: 0,
    questions_this_week: 0,
    last_active: '2026-02-20T09:00:00Z',
    inactive_7_days: true,
  },
];

export const sampleClass = { id: 'c-7b', name: 'Maths 7B', role: 'instructor' as const };

/** `count` students, for the "many students" state. */
export function manyStudents(count: number): DashboardStudent[] {
  return Array.from({ length: count }, (_, i) => ({
    ...sampleStudents[i % 3]!,
    id: `s-${i}`,
    name: `Student ${String(i + 1).padStart(2, '0')}`,
    streak: i % 6,
    questions_this_week: (i * 7) % 13,
  }));
}

export function sampleAlert(overrides: Partial<AlertDetail> = {}): AlertDetail {
  return {
    id: 'a-1',
    class: { id: sampleClass.id, name: sampleClass.name },
    student: { id: 's-ben', name: 'Ben Okafor' },
    category: 'self_harm',
    categories: ['self_harm'],
    severity: 'high',
    status: 'open',
    flags: 1,
    note: null,
    created_at: '2026-03-12T10:05:00Z',
    last_flag_at: '2026-03-12T10:05:00Z',
    unread: true,
    messages: [
      {
        message: 'I want to hurt myself',
        answer:
          "I'm really glad you told me… If you seem to be in danger, Ayah lets a trusted adult at your school know.",
        categories: ['self_harm'],
        created_at: '2026-03-12T10:05:00Z',
      },
    ],
    events: [{ actor: 'Ayah', action: 'created', note: null, created_at: '2026-03-12T10:05:00Z' }],
    deliveries: [
      {
        recipient: 'rivera@school.example',
        status: 'sent',
        attempts: 1,
        last_error: null,
        sent_at: '2026-03-12T10:05:02Z',
      },
    ],
    ...overrides,
  };
}

export interface FakeTeacherOptions {
  students?: DashboardStudent[];
  alerts?: AlertDetail[];
  /** No class taught. */
  noClasses?: boolean;
}

/** A teacher adapter over memory; `overrides` replace any call (to reject, or never settle). */
export function fakeTeacherAdapter(
  options: FakeTeacherOptions = {},
  overrides: Partial<TeacherAdapter> = {},
): TeacherAdapter {
  const students = options.students ?? sampleStudents;
  const alerts = (options.alerts ?? [sampleAlert()]).map((a) => ({ ...a }));
  const dashboard: ClassDashboardData = { class: sampleClass, students };
  const find = (id: string) => {
    const alert = alerts.find((a) => a.id === id);
    if (!alert) throw Object.assign(new Error('Alert not found'), { status: 404 });
    return alert;
  };
  const act = (id: string, status: AlertDetail['status'], action: string, note: string | null) => {
    const alert = find(id);
    alert.status = status;
    if (note !== null) alert.note = note;
    alert.events = [
      ...alert.events,
      { actor: 'Ms Rivera', action, note, created_at: '2026-03-12T11:00:00Z' },
    ];
    return Promise.resolve({ ...alert });
  };
  const summary = ({ messages: _m, events: _e, deliveries: _d, ...rest }: AlertDetail) => rest;
  return {
    classes: async () => ({
      classes: options.noClasses
        ? []
        : [
            { ...sampleClass, source: 'lti', students: students.length },
            { id: 'c-8a', name: 'Science 8A', role: 'instructor', source: 'portal', students: 0 },
          ],
      safety_contact: false,
    }),
    dashboard: async (classId) =>
      classId === sampleClass.id
        ? dashboard
        : { class: { id: classId, name: 'Science 8A', role: 'instructor' }, students: [] },
    alerts: async () => ({
      alerts: alerts.map(summary),
      unread: alerts.filter((a) => a.unread).length,
    }),
    unreadAlerts: async () => ({ unread: alerts.filter((a) => a.unread).length }),
    alert: async (id) => {
      const alert = find(id);
      alert.unread = false;
      return { ...alert };
    },
    acknowledge: (id) => act(id, 'acknowledged', 'acknowledged', null),
    resolve: (id, note) => act(id, 'resolved', 'resolved', note),
    markFalsePositive: (id, note) => act(id, 'false_positive', 'false_positive', note || null),
    ...overrides,
  };
}
