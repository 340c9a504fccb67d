/**
 * A fake goals adapter for machine tests, component tests and stories: an in-memory week of goals
 * that behaves like the server (3-subject limit, 50 % edit lock, progress capped at 100 %, each
 * milestone celebrated once, streak and this-week counts), every call replaceable through
 * `overrides`. No test framework is imported, so stories and tests share it.
 */
import type {
  Celebration,
  Goal,
  GoalActivity,
  GoalProgressEntry,
  GoalsAdapter,
  GoalType,
  Subject,
} from '../src/api';
import { ApiError } from '../src/lib/http-errors';
import { GOALS } from '../src/lib/limits';
import { VALIDATION_MESSAGES } from '../src/lib/messages';

export { apiError, deferred, pending } from './chat';

const AT = '2026-03-04T15:00:00.000Z';

/** A goal at `percent` of its target. */
export function goal(
  id: string,
  subject: Subject,
  goalType: GoalType = 'problems_solved',
  target = 20,
  percent = 0,
): Goal {
  return {
    _id: id,
    subject,
    goal_type: goalType,
    target_value: target,
    total_progress: percent,
    latest_progress:
      percent > 0
        ? { value: Math.max(1, Math.round((target * percent) / 100)), created_at: AT }
        : null,
    created_at: '2026-03-02T08:00:00.000Z',
  };
}

export const sampleGoals: Goal[] = [
  goal('g-math', 'math', 'problems_solved', 20, 24),
  goal('g-science', 'science', 'study_time', 60, 75),
  goal('g-english', 'english', 'topics_learned', 4, 100),
];

/** One goal at each colour band's edge: 0, 24, 25, 74, 75 and 100 %. */
export const edgeGoals: Goal[] = [
  goal('g-0', 'math', 'problems_solved', 100, 0),
  goal('g-24', 'math', 'study_time', 100, 24),
  goal('g-25', 'science', 'topics_learned', 100, 25),
  goal('g-74', 'science', 'problems_solved', 100, 74),
  goal('g-75', 'english', 'study_time', 100, 75),
  goal('g-100', 'english', 'topics_learned', 100, 100),
];

export const sampleActivities: GoalActivity[] = [
  activity('math', 'problems_solved', 20, 'Fractions', 3, '2026-03-04T15:00:00.000Z'),
  activity('science', 'study_time', 60, 'Cells', 25, '2026-03-04T10:00:00.000Z'),
  activity('english', 'topics_learned', 4, 'Poetry', 1, '2026-03-03T18:30:00.000Z'),
];

export function activity(
  subject: Subject,
  goalType: GoalType,
  target: number,
  topic: string | null,
  value: number,
  updatedAt: string,
): GoalActivity {
  return {
    goal: { subject, goal_type: goalType, target_value: target },
    topic,
    value,
    updated_at: updatedAt,
  };
}

/** `count` days of progress, newest first, from 4 March 2026 back. */
export function historyDays(count: number): GoalProgressEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    total_value: i + 2,
    total_time: 15 * (i + 1),
    date: new Date(Date.UTC(2026, 2, 4 - i)).toISOString().slice(0, 10),
  }));
}

export type FakeGoalsOptions = {
  goals?: Goal[];
  activities?: GoalActivity[];
  history?: GoalProgressEntry[];
  streak?: number;
  celebrations?: Celebration[];
};

/** The fake adapter: a working week in memory, each call replaceable through `overrides`. */
export function fakeGoalsAdapter(
  overrides: Partial<GoalsAdapter> = {},
  options: FakeGoalsOptions = {},
): GoalsAdapter {
  // Progress is kept as a raw total per goal, so percentages move as the server's do.
  let goals = (options.goals ?? sampleGoals).map((g) => ({ ...g }));
  const totals = new Map(goals.map((g) => [g._id, (g.total_progress / 100) * g.target_value]));
  let activities = [...(options.activities ?? sampleActivities)];
  const history = options.history ?? historyDays(6);
  let streak = options.streak ?? 3;
  let pendingCelebrations = [...(options.celebrations ?? [])];
  const reached = new Set<string>();
  let nextId = 1;

  const find = (id: string) => {
    const found = goals.find((g) => g._id === id);
    if (!found) throw new ApiError(404, 'Goal not found', 'Goal not found');
    return found;
  };
  const percent = (g: Goal) =>
    Math.min(100, Math.round(((totals.get(g._id) ?? 0) / g.target_value) * 10_000) / 100);
  const settle = (g: Goal) => {
    g.total_progress = percent(g);
    for (const milestone of GOALS.milestones) {
      const key = `${g._id}:${milestone}`;
      if (g.total_progress >= milestone && !reached.has(key)) {
        reached.add(key);
        pendingCelebrations.push({ goal_id: g._id, milestone });
      }
    }
  };
  goals.forEach((g) =>
    GOALS.milestones.forEach((m) => g.total_progress >= m && reached.add(`${g._id}:${m}`)),
  );

  const adapter: GoalsAdapter = {
    async create(body) {
      const subjects = new Set(goals.map((g) => g.subject));
      if (!subjects.has(body.subject) && subjects.size >= GOALS.maxSubjects) {
        throw new ApiError(
          400,
          VALIDATION_MESSAGES.goalSubjectLimit,
          VALIDATION_MESSAGES.goalSubjectLimit,
        );
      }
      const created: Goal = {
        _id: `g-new-${nextId++}`,
        ...body,
        total_progress: 0,
        latest_progress: null,
        created_at: new Date().toISOString(),
      };
      goals = [...goals, created];
      totals.set(created._id, 0);
      return { goal: { ...created } };
    },
    async listCurrent() {
      return { goals: goals.map((g) => ({ ...g })) };
    },
    async listAll() {
      return { goals: goals.map((g) => ({ ...g })) };
    },
    async update(id, body) {
      const g = find(id);
      if (g.total_progress > GOALS.editLockPercent) {
        throw new ApiError(
          400,
          VALIDATION_MESSAGES.goalEditLocked,
          VALIDATION_MESSAGES.goalEditLocked,
        );
      }
      g.target_value = body.target_value;
      settle(g);
      return { goal: { ...g } };
    },
    async remove(id) {
      find(id);
      goals = goals.filter((g) => g._id !== id);
      return { message: 'Goal deleted successfully' };
    },
    async logProgress(id, body) {
      const g = find(id);
      totals.set(id, (totals.get(id) ?? 0) + body.value);
      g.latest_progress = { value: body.value, created_at: new Date().toISOString() };
      settle(g);
      activities = [
        activity(
          g.subject,
          g.goal_type,
          g.target_value,
          body.topic ?? null,
          body.value,
          g.latest_progress.created_at,
        ),
        ...activities,
      ];
      if (streak === 0) streak = 1;
      return { goal: { ...g } };
    },
    async progressHistory(id, { limit = GOALS.progressPageSize, page = 1 } = {}) {
      find(id);
      const data = history.slice((page - 1) * limit, page * limit);
      return { data, total: history.length, page, limit, hasMore: page * limit < history.length };
    },
    async activities({ limit = GOALS.recentActivityLimit, page = 1 } = {}) {
      const data = activities.slice((page - 1) * limit, page * limit);
      return {
        data,
        total: activities.length,
        page,
        limit,
        hasMore: page * limit < activities.length,
      };
    },
    async completedInWeek() {
      return { count: goals.filter((g) => g.total_progress >= 100).length };
    },
    async streak() {
      return { streak };
    },
    async celebrations() {
      const found = pendingCelebrations;
      pendingCelebrations = [];
      return found;
    },
  };
  return { ...adapter, ...overrides };
}
