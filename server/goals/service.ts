/**
 * Weekly goals (spec section 5 and API.md): a week runs Monday 00:00 to Sunday 24:00 in the caller's
 * time zone (`X-Timezone`, UTC when absent), and so do the days of the streak and history; at most 3
 * distinct subjects a week; no edit above 50 % progress; progress capped at 100 %; milestones 25, 50,
 * 75 and 100 each reached once; +50 points when a goal reaches 100 %, taken back if it falls under
 * or the goal is deleted, and earned at most GOAL_AWARDS_PER_WEEK times a week (counting awards that
 * were taken back, so create–complete–delete cannot farm points). Goal writes are rate-limited per
 * student. Writes lock the user first, then the goal (the order every service keeps).
 */
import { GOALS, POINTS, SUBJECT_LABELS, VALIDATION_MESSAGES } from 'ayah-coach/rules';
import type { Placeholder } from 'drizzle-orm';
import { and, asc, desc, eq, gte, isNull, lt, sql } from 'drizzle-orm';

import type { Queryable } from '../db';
import { transaction } from '../db';
import type { Column, Placeholders } from '../db/compiled';
import { jsonOf } from '../db/compiled';
import { lockUser } from '../db/locks';
import { goalMilestones, goalProgress, goals } from '../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../http/errors';
import type { Page } from '../http/paging';
import { offsetOf, paged } from '../http/paging';
import { enforce } from '../http/rate-limit';
import { DEFAULT_TIMEZONE, localDay } from '../http/timezone';
import type { PointsLedger } from '../ports';

export const GOAL_MESSAGES = {
  notFound: 'Goal not found',
  deleted: 'Goal deleted successfully',
  subjectLimit: VALIDATION_MESSAGES.goalSubjectLimit,
  editLocked: VALIDATION_MESSAGES.goalEditLocked,
  tooFast: 'You are changing goals too quickly. Please wait a moment and try again.',
} as const;

/** How often a student may earn the goal award (+50) in one week (Monday 00:00 UTC to Monday). */
export const GOAL_AWARDS_PER_WEEK = 3;

type GoalRow = typeof goals.$inferSelect;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A goal of the week as the tutor's prompt shows it (`currentColumn`). */
export interface WeekGoal {
  subject: (typeof GOALS.subjects)[number];
  goal_type: (typeof GOALS.goalTypes)[number];
  target_value: number;
  total_progress: number;
}

type WeekValues = 'userId' | 'at' | 'tz';

/**
 * Monday 00:00 in `tz` of the week `at` falls in, `weeks` later, as an instant (SQL). The local
 * wall-clock time is truncated and moved, then read back in the zone, so a DST change inside the
 * week keeps Monday at midnight. `tz` is a name from the IANA list (see server/http/timezone.ts).
 */
function zonedWeekStart(at: Date | Placeholder, tz: string | Placeholder, weeks = 0) {
  const instant = at instanceof Date ? at.toISOString() : at;
  return sql`((date_trunc('week', ${instant}::timestamptz at time zone ${tz}) + make_interval(weeks => ${weeks})) at time zone ${tz})`;
}

/** Goals created in the week `at` falls in, in `tz` (values, or placeholders of a prepared query). */
function createdInWeekOf(at: Date | Placeholder, tz: string | Placeholder) {
  return and(
    gte(goals.createdAt, zonedWeekStart(at, tz)),
    lt(goals.createdAt, zonedWeekStart(at, tz, 1)),
  );
}

/**
 * The week's goals of a student (`currentColumn`) as one json value: what the tutor's prompt shows
 * of each, in `list`'s order.
 */
const weekGoals = (p: Placeholders<WeekValues>) => sql`(
  select coalesce(json_agg(json_build_object(
      'subject', ${goals.subject}, 'goal_type', ${goals.goalType},
      'target_value', ${goals.targetValue}, 'total_value', ${goals.totalValue})
    order by ${goals.weekStart} desc, ${goals.createdAt}, ${goals.id}), '[]'::json)
  from ${goals}
  where ${goals.userId} = ${p.userId} and ${createdInWeekOf(p.at, p.tz)})`;

/**
 * 'YYYY-MM-DD' of a timestamp column's calendar day in `tz`. The zone is a literal, not a parameter:
 * the same expression is selected and grouped by, and PostgreSQL matches the two only when they are
 * identical. Names from the IANA list hold nothing but letters, digits, '_', '/', '+' and '-'.
 */
function zonedDay(column: typeof goalProgress.createdAt, tz: string) {
  const zone = /^[A-Za-z0-9_/+-]+$/.test(tz) ? tz : DEFAULT_TIMEZONE;
  return sql<string>`to_char(${column} at time zone '${sql.raw(zone)}', 'YYYY-MM-DD')`;
}

/** Monday 00:00 UTC of the week `at` falls in (the week of a caller without a time zone). */
export function weekStart(at: Date): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
}

/** Progress in percent of the target, 2 decimals, capped at 100. */
function labelOf(goal: GoalRow): string {
  return `${SUBJECT_LABELS[goal.subject as keyof typeof SUBJECT_LABELS] ?? goal.subject} goal`;
}

export function percentOf(totalValue: number, targetValue: number): number {
  if (targetValue <= 0) return totalValue > 0 ? 100 : 0;
  return Math.min(100, Math.round((totalValue / targetValue) * 10_000) / 100);
}

/** A date of the account export (auth's GET /export). */
const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function createGoalsService({ db, now, config }: Deps, ledger: PointsLedger) {
  /** Every goal write counts against the student's limit (429 with Retry-After beyond it). */
  const limitWrites = (userId: string) =>
    enforce(db, `goal-write:${userId}`, config.limits.goalWrites, now(), GOAL_MESSAGES.tooFast);

  async function latestProgress(q: Queryable, goalIds: string[]) {
    if (goalIds.length === 0) return new Map<string, { value: number; created_at: string }>();
    const rows = await q
      .selectDistinctOn([goalProgress.goalId], {
        goalId: goalProgress.goalId,
        value: goalProgress.value,
        createdAt: goalProgress.createdAt,
      })
      .from(goalProgress)
      .where(sql`${goalProgress.goalId} in ${goalIds}`)
      .orderBy(goalProgress.goalId, desc(goalProgress.createdAt), desc(goalProgress.id));
    return new Map(
      rows.map((r) => [r.goalId, { value: r.value, created_at: r.createdAt.toISOString() }]),
    );
  }

  async function publicGoals(q: Queryable, rows: GoalRow[]) {
    const latest = await latestProgress(
      q,
      rows.map((r) => r.id),
    );
    return rows.map((row) => ({
      _id: row.id,
      subject: row.subject as (typeof GOALS.subjects)[number],
      goal_type: row.goalType as (typeof GOALS.goalTypes)[number],
      target_value: row.targetValue,
      total_progress: percentOf(row.totalValue, row.targetValue),
      latest_progress: latest.get(row.id) ?? null,
      created_at: row.createdAt.toISOString(),
    }));
  }

  async function ownGoal(q: Queryable, userId: string, id: string, lock = false) {
    const query = q
      .select()
      .from(goals)
      .where(and(eq(goals.id, id), eq(goals.userId, userId)))
      .limit(1);
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw new AppError(404, GOAL_MESSAGES.notFound);
    return row;
  }

  /** Records milestones reached and keeps the completion award in step with the goal's progress. */
  async function settle(q: Queryable, goal: GoalRow) {
    const at = now();
    const percent = percentOf(goal.totalValue, goal.targetValue);
    const reached = GOALS.milestones.filter((m) => percent >= m);
    if (reached.length > 0) {
      await q
        .insert(goalMilestones)
        .values(
          reached.map((milestone) => ({
            goalId: goal.id,
            userId: goal.userId,
            milestone,
            reachedAt: at,
          })),
        )
        .onConflictDoNothing();
    }
    const prefix = `goal:${goal.id}:`;
    const { net, rows } = await ledger.netByKeyPrefix(q, goal.userId, prefix);
    const label = labelOf(goal);
    if (
      percent >= GOALS.maxProgressPercent &&
      net <= 0 &&
      (await ledger.awardsSince(q, goal.userId, 'goal', weekStart(at))) < GOAL_AWARDS_PER_WEEK
    ) {
      await ledger.award(q, goal.userId, {
        key: `${prefix}${rows}`,
        amount: POINTS.goalCompletedAward,
        category: 'goal',
        description: `${label} completed`,
        at,
      });
    } else if (percent < GOALS.maxProgressPercent && net > 0) {
      await ledger.takeBack(q, goal.userId, {
        key: `${prefix}${rows}`,
        amount: net,
        category: 'goal',
        description: `${label} no longer complete`,
        at,
      });
    }
  }

  /** Goals created in the current week of `tz`. */
  function inCurrentWeek(tz: string) {
    return createdInWeekOf(now(), tz);
  }

  /**
   * The week's goals of a student (`createdInWeekOf` with placeholders for its values): read before
   * every tutor reply, so built once and (on PostgreSQL) prepared once a connection (issue 26:
   * drizzle's building of a select was the largest part of a send's own CPU). Built on first use.
   */
  let currentWeekQuery: ReturnType<typeof prepareCurrentWeek> | undefined;
  const prepareCurrentWeek = () =>
    db
      .select()
      .from(goals)
      .where(
        and(
          eq(goals.userId, sql.placeholder('userId')),
          createdInWeekOf(sql.placeholder('at'), sql.placeholder('tz')),
        ),
      )
      .orderBy(desc(goals.weekStart), asc(goals.createdAt), asc(goals.id))
      .prepare('goals_current_week');

  return {
    async list(userId: string, scope: 'current' | 'all', tz = DEFAULT_TIMEZONE) {
      const rows =
        scope === 'current'
          ? await (currentWeekQuery ??= prepareCurrentWeek()).execute({
              userId,
              at: now().toISOString(),
              tz,
            })
          : await db
              .select()
              .from(goals)
              .where(eq(goals.userId, userId))
              .orderBy(desc(goals.weekStart), asc(goals.createdAt), asc(goals.id));
      return publicGoals(db, rows);
    },

    /**
     * The week's goals as `list(userId, 'current', tz)` answers them, with what the tutor's prompt
     * shows of each, as a column of another statement (`Column`, db/compiled.ts): the tutor reads
     * them in the statement that stores the student's question (issue 26).
     */
    currentColumn(userId: string, tz = DEFAULT_TIMEZONE): Column<WeekGoal[], WeekValues> {
      return {
        name: 'goals',
        sql: weekGoals,
        values: { userId, at: now().toISOString(), tz },
        read: (value) =>
          (jsonOf(value) as (Omit<WeekGoal, 'total_progress'> & { total_value: number })[]).map(
            ({ total_value, ...goal }) => ({
              ...goal,
              total_progress: percentOf(total_value, goal.target_value),
            }),
          ),
      };
    },

    async create(
      userId: string,
      input: { subject: string; goal_type: string; target_value: number },
      tz = DEFAULT_TIMEZONE,
    ) {
      await limitWrites(userId);
      const at = now();
      return transaction(db, async (tx) => {
        await lockUser(tx, userId);
        const existing = await tx
          .selectDistinct({ subject: goals.subject })
          .from(goals)
          .where(and(eq(goals.userId, userId), inCurrentWeek(tz)));
        const subjects = new Set(existing.map((g) => g.subject));
        if (!subjects.has(input.subject) && subjects.size >= GOALS.maxSubjects)
          throw new AppError(400, GOAL_MESSAGES.subjectLimit);
        const [row] = await tx
          .insert(goals)
          .values({
            userId,
            subject: input.subject,
            goalType: input.goal_type,
            targetValue: input.target_value,
            // Monday 00:00 of its week in the student's zone.
            weekStart: zonedWeekStart(at, tz),
            createdAt: at,
            updatedAt: at,
          })
          .returning();
        return (await publicGoals(tx, [row!]))[0]!;
      });
    },

    async update(userId: string, id: string, targetValue: number) {
      await limitWrites(userId);
      return transaction(db, async (tx) => {
        await lockUser(tx, userId);
        const goal = await ownGoal(tx, userId, id, true);
        if (percentOf(goal.totalValue, goal.targetValue) > GOALS.editLockPercent)
          throw new AppError(400, GOAL_MESSAGES.editLocked);
        const [row] = await tx
          .update(goals)
          .set({ targetValue, updatedAt: now() })
          .where(eq(goals.id, id))
          .returning();
        await settle(tx, row!);
        return (await publicGoals(tx, [row!]))[0]!;
      });
    },

    /** Deletes the goal and takes its award back (never below a zero balance). */
    async remove(userId: string, id: string) {
      await limitWrites(userId);
      await transaction(db, async (tx) => {
        await lockUser(tx, userId);
        const goal = await ownGoal(tx, userId, id, true);
        const prefix = `goal:${goal.id}:`;
        const { net, rows } = await ledger.netByKeyPrefix(tx, userId, prefix);
        if (net > 0) {
          await ledger.takeBack(tx, userId, {
            key: `${prefix}${rows}`,
            amount: net,
            category: 'goal',
            description: `${labelOf(goal)} deleted`,
            at: now(),
          });
        }
        await tx.delete(goals).where(eq(goals.id, id));
      });
    },

    async logProgress(
      userId: string,
      id: string,
      input: { value: number; topic?: string | undefined; minutes?: number | undefined },
    ) {
      await limitWrites(userId);
      return transaction(db, async (tx) => {
        await lockUser(tx, userId);
        await ownGoal(tx, userId, id, true);
        const at = now();
        await tx.insert(goalProgress).values({
          goalId: id,
          userId,
          value: input.value,
          minutes: input.minutes ?? null,
          topic: input.topic ?? null,
          createdAt: at,
        });
        const [row] = await tx
          .update(goals)
          .set({ totalValue: sql`${goals.totalValue} + ${input.value}`, updatedAt: at })
          .where(eq(goals.id, id))
          .returning();
        await settle(tx, row!);
        return (await publicGoals(tx, [row!]))[0]!;
      });
    },

    async history(userId: string, id: string, page: Page, tz = DEFAULT_TIMEZONE) {
      const goal = await ownGoal(db, userId, id);
      const day = zonedDay(goalProgress.createdAt, tz);
      const minutes =
        goal.goalType === 'study_time'
          ? sql`coalesce(${goalProgress.minutes}, ${goalProgress.value})`
          : sql`coalesce(${goalProgress.minutes}, 0)`;
      const [rows, [count]] = await Promise.all([
        db
          .select({
            date: day,
            total_value: sql<string>`sum(${goalProgress.value})`,
            total_time: sql<string>`sum(${minutes})`,
          })
          .from(goalProgress)
          .where(eq(goalProgress.goalId, id))
          .groupBy(day)
          .orderBy(desc(day))
          .limit(page.limit)
          .offset(offsetOf(page)),
        db
          .select({ n: sql<string>`count(distinct ${day})` })
          .from(goalProgress)
          .where(eq(goalProgress.goalId, id)),
      ]);
      const data = rows.map((r) => ({
        total_value: Number(r.total_value),
        total_time: Number(r.total_time),
        date: r.date,
      }));
      return paged('data', data, Number(count?.n ?? 0), page);
    },

    async activities(userId: string, page: Page) {
      const [rows, [count]] = await Promise.all([
        db
          .select({ progress: goalProgress, goal: goals })
          .from(goalProgress)
          .innerJoin(goals, eq(goals.id, goalProgress.goalId))
          .where(eq(goalProgress.userId, userId))
          .orderBy(desc(goalProgress.createdAt), desc(goalProgress.id))
          .limit(page.limit)
          .offset(offsetOf(page)),
        db
          .select({ n: sql<string>`count(*)` })
          .from(goalProgress)
          .where(eq(goalProgress.userId, userId)),
      ]);
      const data = rows.map(({ progress, goal }) => ({
        goal: {
          subject: goal.subject as (typeof GOALS.subjects)[number],
          goal_type: goal.goalType as (typeof GOALS.goalTypes)[number],
          target_value: goal.targetValue,
        },
        topic: progress.topic,
        value: progress.value,
        updated_at: progress.createdAt.toISOString(),
      }));
      return paged('data', data, Number(count?.n ?? 0), page);
    },

    async completedInWeek(userId: string, tz = DEFAULT_TIMEZONE) {
      const [row] = await db
        .select({ n: sql<string>`count(*)` })
        .from(goals)
        .where(
          and(
            eq(goals.userId, userId),
            inCurrentWeek(tz),
            gte(goals.totalValue, goals.targetValue),
          ),
        );
      return Number(row?.n ?? 0);
    },

    /** Consecutive days with progress, ending today (or yesterday, while today is still open). */
    async streak(userId: string, tz = DEFAULT_TIMEZONE) {
      const day = zonedDay(goalProgress.createdAt, tz);
      const rows = await db
        .selectDistinct({ day })
        .from(goalProgress)
        .where(eq(goalProgress.userId, userId))
        .orderBy(desc(day))
        .limit(3660);
      const days = new Set(rows.map((r) => r.day));
      // Calendar days, counted back from today in the student's zone (UTC dates only carry them).
      const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
      let cursor = Date.parse(localDay(now(), tz));
      if (!days.has(iso(cursor))) cursor -= DAY_MS;
      let streak = 0;
      while (days.has(iso(cursor))) {
        streak++;
        cursor -= DAY_MS;
      }
      return streak;
    },

    /** Milestones reached and not yet shown; reading them marks them shown. */
    async celebrations(userId: string) {
      const rows = await db
        .update(goalMilestones)
        .set({ shownAt: now() })
        .where(and(eq(goalMilestones.userId, userId), isNull(goalMilestones.shownAt)))
        .returning({ goal_id: goalMilestones.goalId, milestone: goalMilestones.milestone });
      return rows
        .map((r) => ({ goal_id: r.goal_id, milestone: r.milestone as 25 | 50 | 75 | 100 }))
        .sort((a, b) => a.goal_id.localeCompare(b.goal_id) || a.milestone - b.milestone);
    },

    /** The user's goals, their progress and milestones, for the account export. */
    async exportRows(userId: string) {
      const goalRows = await db
        .select()
        .from(goals)
        .where(eq(goals.userId, userId))
        .orderBy(asc(goals.createdAt));
      const progress = await db
        .select()
        .from(goalProgress)
        .where(eq(goalProgress.userId, userId))
        .orderBy(asc(goalProgress.createdAt));
      const milestones = await db
        .select()
        .from(goalMilestones)
        .where(eq(goalMilestones.userId, userId));
      return {
        goals: goalRows.map((goal) => ({
          id: goal.id,
          subject: goal.subject,
          goal_type: goal.goalType,
          target_value: goal.targetValue,
          total_value: goal.totalValue,
          week_start: iso(goal.weekStart),
          created_at: iso(goal.createdAt),
          progress: progress
            .filter((entry) => entry.goalId === goal.id)
            .map((entry) => ({
              value: entry.value,
              minutes: entry.minutes,
              topic: entry.topic,
              created_at: iso(entry.createdAt),
            })),
          milestones: milestones
            .filter((entry) => entry.goalId === goal.id)
            .map((entry) => ({ milestone: entry.milestone, reached_at: iso(entry.reachedAt) })),
        })),
      };
    },
  };
}

export type GoalsService = ReturnType<typeof createGoalsService>;
