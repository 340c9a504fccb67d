/**
 * Classes and who teaches them. A class comes from an LTI course or a portal's `class_id`; a member's
 * role comes only from a launch or an assertion (`joinClass`, the port the root hands the LTI and
 * portal sign-ins), never from a request of the member's own. Everything a teacher reads goes through
 * `teacherOf`: a class the caller does not teach is 404, as if it did not exist.
 */
import { classCsv } from 'ayah-coach/rules';
import { and, asc, eq, inArray, max, sql } from 'drizzle-orm';

import type { User } from '../db/schema';
import type { ClassRole, ClassSource } from '../db/schema';
import {
  chatMessages,
  chatSessions,
  classes,
  classMembers,
  goalProgress,
  safetyAlertMessages,
  safetyAlerts,
  users,
} from '../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../http/errors';

export const CLASS_MESSAGES = {
  notFound: 'Class not found',
  studentNotFound: 'Student not found in this class',
  chatsOff:
    "This school has not let teachers read their students' chats (AYAH_TEACHERS_READ_CHATS)",
} as const;

export interface JoinClassInput {
  userId: string;
  source: ClassSource;
  externalKey: string;
  name: string;
  role: ClassRole;
}

/** A goal as the goals domain answers it for the current week. */
export interface WeekGoal {
  _id: string;
  subject: string;
  goal_type: string;
  target_value: number;
  total_progress: number;
}

/** What the dashboard reads of a student's goals: the narrow port the root hands this domain. */
export interface GoalsReader {
  list(userId: string, scope: 'current', tz: string): Promise<WeekGoal[]>;
  streak(userId: string, tz: string): Promise<number>;
  completedInWeek(userId: string, tz: string): Promise<number>;
}

const TEACHING: ClassRole[] = ['instructor', 'administrator'];
const DAY_MS = 86_400_000;

/** Monday 00:00 in `tz` of the current week, as an instant (SQL; as the goals domain counts weeks). */
const weekStartSql = (at: Date, tz: string) =>
  sql`(date_trunc('week', ${at.toISOString()}::timestamptz at time zone ${tz}) at time zone ${tz})`;

export function createClassService(deps: Deps, goals: GoalsReader) {
  const { db, now, config } = deps;

  /** The class `classId` if `user` teaches it (instructor or administrator of it); 404 otherwise. */
  async function teacherOf(user: User, classId: string) {
    const [row] = await db
      .select({ id: classes.id, name: classes.name, role: classMembers.role })
      .from(classMembers)
      .innerJoin(classes, eq(classes.id, classMembers.classId))
      .where(
        and(
          eq(classMembers.classId, classId),
          eq(classMembers.userId, user.id),
          inArray(classMembers.role, TEACHING),
        ),
      )
      .limit(1);
    if (!row) throw new AppError(404, CLASS_MESSAGES.notFound);
    return row;
  }

  async function learnerOf(classId: string, studentId: string) {
    const [row] = await db
      .select({ id: users.id, name: users.displayName })
      .from(classMembers)
      .innerJoin(users, eq(users.id, classMembers.userId))
      .where(
        and(
          eq(classMembers.classId, classId),
          eq(classMembers.userId, studentId),
          eq(classMembers.role, 'learner'),
        ),
      )
      .limit(1);
    if (!row) throw new AppError(404, CLASS_MESSAGES.studentNotFound);
    return row;
  }

  /** One row per learner: this week's goals, streak, completions, questions and last activity. */
  async function dashboard(user: User, classId: string, tz: string) {
    const klass = await teacherOf(user, classId);
    const at = now();
    const learners = await db
      .select({
        id: users.id,
        name: users.displayName,
        lastLogin: users.lastLogin,
        lastLaunchAt: classMembers.lastLaunchAt,
      })
      .from(classMembers)
      .innerJoin(users, eq(users.id, classMembers.userId))
      .where(and(eq(classMembers.classId, classId), eq(classMembers.role, 'learner')))
      .orderBy(asc(users.displayName), asc(users.id));
    const ids = learners.map((l) => l.id);
    const questions = new Map<string, { n: number; last: Date | null }>();
    const progress = new Map<string, Date | null>();
    if (ids.length > 0) {
      const rows = await db
        .select({
          userId: chatMessages.userId,
          n: sql<string>`count(*) filter (where ${chatMessages.createdAt} >= ${weekStartSql(at, tz)})`,
          last: max(chatMessages.createdAt),
        })
        .from(chatMessages)
        .where(and(inArray(chatMessages.userId, ids), eq(chatMessages.role, 'user')))
        .groupBy(chatMessages.userId);
      for (const r of rows) questions.set(r.userId, { n: Number(r.n), last: r.last });
      const logged = await db
        .select({ userId: goalProgress.userId, last: max(goalProgress.createdAt) })
        .from(goalProgress)
        .where(inArray(goalProgress.userId, ids))
        .groupBy(goalProgress.userId);
      for (const r of logged) progress.set(r.userId, r.last);
    }
    const students = await Promise.all(
      learners.map(async (learner) => {
        const [week, streak, completed] = await Promise.all([
          goals.list(learner.id, 'current', tz),
          goals.streak(learner.id, tz),
          goals.completedInWeek(learner.id, tz),
        ]);
        const times = [
          learner.lastLogin,
          learner.lastLaunchAt,
          questions.get(learner.id)?.last ?? null,
          progress.get(learner.id) ?? null,
        ].filter((t): t is Date => t !== null);
        const last = times.length ? new Date(Math.max(...times.map((t) => t.getTime()))) : null;
        return {
          id: learner.id,
          name: learner.name,
          goals: week.map((g) => ({
            id: g._id,
            subject: g.subject,
            goal_type: g.goal_type,
            target_value: g.target_value,
            progress: g.total_progress,
          })),
          streak,
          completed_this_week: completed,
          questions_this_week: questions.get(learner.id)?.n ?? 0,
          last_active: last?.toISOString() ?? null,
          inactive_7_days: !last || at.getTime() - last.getTime() >= 7 * DAY_MS,
        };
      }),
    );
    return { class: { id: klass.id, name: klass.name, role: klass.role }, students };
  }

  return {
    teacherOf,

    async joinClass(input: JoinClassInput): Promise<{ classId: string }> {
      const at = now();
      const name = input.name.replace(/\0/g, '').trim().slice(0, 200) || input.externalKey;
      const [klass] = await db
        .insert(classes)
        .values({ source: input.source, externalKey: input.externalKey, name, createdAt: at })
        .onConflictDoUpdate({
          target: [classes.source, classes.externalKey],
          set: { name, updatedAt: at },
        })
        .returning({ id: classes.id });
      await db
        .insert(classMembers)
        .values({ classId: klass!.id, userId: input.userId, role: input.role, joinedAt: at })
        .onConflictDoUpdate({
          target: [classMembers.classId, classMembers.userId],
          set: { role: input.role, lastLaunchAt: at },
        });
      return { classId: klass!.id };
    },

    /** The classes `user` teaches. */
    async taught(user: User) {
      const rows = await db
        .select({
          id: classes.id,
          name: classes.name,
          source: classes.source,
          role: classMembers.role,
          students: sql<string>`(select count(*) from ${classMembers} m where m.class_id = ${classes.id} and m.role = 'learner')`,
        })
        .from(classMembers)
        .innerJoin(classes, eq(classes.id, classMembers.classId))
        .where(and(eq(classMembers.userId, user.id), inArray(classMembers.role, TEACHING)))
        .orderBy(asc(classes.name), asc(classes.id));
      return rows.map((r) => ({ ...r, students: Number(r.students) }));
    },

    dashboard,

    /** The dashboard as CSV: no chat text, one line per student. */
    async csv(user: User, classId: string, tz: string): Promise<string> {
      const { students } = await dashboard(user, classId, tz);
      return classCsv(students);
    },

    /** A student's chats, only where the school allows it (AYAH_TEACHERS_READ_CHATS=1). */
    async studentChats(user: User, classId: string, studentId: string) {
      await teacherOf(user, classId);
      if (!config.classes.teachersReadChats) throw new AppError(403, CLASS_MESSAGES.chatsOff);
      const student = await learnerOf(classId, studentId);
      const sessions = await db
        .select({ id: chatSessions.id, title: chatSessions.title })
        .from(chatSessions)
        .where(eq(chatSessions.userId, studentId))
        .orderBy(asc(chatSessions.createdAt));
      const messages = sessions.length
        ? await db
            .select()
            .from(chatMessages)
            .where(
              inArray(
                chatMessages.sessionId,
                sessions.map((s) => s.id),
              ),
            )
            .orderBy(asc(chatMessages.createdAt))
        : [];
      return {
        student,
        chats: sessions.map((s) => ({
          ...s,
          messages: messages
            .filter((m) => m.sessionId === s.id)
            .map((m) => ({
              role: m.role,
              content: m.content,
              created_at: m.createdAt.toISOString(),
            })),
        })),
      };
    },

    /** What the account export adds: the student's classes and the alerts about them. */
    async exportRows(userId: string) {
      const memberships = await db
        .select({
          id: classes.id,
          name: classes.name,
          source: classes.source,
          role: classMembers.role,
          joinedAt: classMembers.joinedAt,
        })
        .from(classMembers)
        .innerJoin(classes, eq(classes.id, classMembers.classId))
        .where(eq(classMembers.userId, userId))
        .orderBy(asc(classMembers.joinedAt));
      const alerts = await db
        .select()
        .from(safetyAlerts)
        .where(eq(safetyAlerts.studentId, userId))
        .orderBy(asc(safetyAlerts.createdAt));
      const texts = alerts.length
        ? await db
            .select()
            .from(safetyAlertMessages)
            .where(
              and(
                inArray(
                  safetyAlertMessages.alertId,
                  alerts.map((a) => a.id),
                ),
                eq(safetyAlertMessages.userId, userId),
              ),
            )
            .orderBy(asc(safetyAlertMessages.createdAt))
        : [];
      return {
        classes: memberships.map((m) => ({
          id: m.id,
          name: m.name,
          source: m.source,
          role: m.role,
          joined_at: m.joinedAt.toISOString(),
        })),
        safety_alerts: alerts.map((a) => ({
          id: a.id,
          class_id: a.classId,
          category: a.category,
          severity: a.severity,
          status: a.status,
          created_at: a.createdAt.toISOString(),
          messages: texts
            .filter((t) => t.alertId === a.id)
            .map((t) => ({
              message: t.message,
              answer: t.answer,
              created_at: t.createdAt.toISOString(),
            })),
        })),
      };
    },
  };
}

export type ClassService = ReturnType<typeof createClassService>;
