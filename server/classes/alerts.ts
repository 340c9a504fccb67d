/**
 * Safety alerts: a student's flagged message, in a class, told to a trusted adult. `raise` is the
 * port the root hands the tutor: one alert a class and conversation, several flags within 10 minutes
 * being the same alert, updated. Each recipient (the class's instructors, the school's
 * administrators and AYAH_SAFETY_CONTACTS) gets one mail from the outbox table (alert-mail.ts):
 * who, when, the category and a link, never the message text.
 *
 * Who sees an alert: the instructors of its class, and the school's safety contacts (administrators
 * of any class, and signed-in accounts whose verified address is in AYAH_SAFETY_CONTACTS). Everyone
 * else gets 404. Every view and action is recorded with who and when.
 */
import type { AlertCategory } from 'ayah-coach/rules';
import type { SQL } from 'drizzle-orm';
import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';

import type { Queryable } from '../db';
import { transaction } from '../db';
import { lockUser } from '../db/locks';
import type { AlertSeverity, AlertStatus, User } from '../db/schema';
import {
  classes,
  classMembers,
  safetyAlertDeliveries,
  safetyAlertEvents,
  safetyAlertMessages,
  safetyAlerts,
  users,
} from '../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../http/errors';

/** Flags of one conversation this close together are one alert. */
export const ALERT_WINDOW_MS = 10 * 60_000;

export const ALERT_MESSAGES = {
  notFound: 'Alert not found',
  closed: 'This alert is already closed',
  deletedStudent: 'Deleted account',
} as const;

const SEVERITY: Record<AlertCategory, AlertSeverity> = {
  self_harm: 'high',
  unsafe: 'medium',
  personal_data: 'low',
};
const RANK: Record<AlertSeverity, number> = { high: 3, medium: 2, low: 1 };

export interface RaiseInput {
  studentId: string;
  sessionId: string | null;
  category: AlertCategory;
  /** Our category and the moderation provider's names after it. */
  categories: string[];
  message: string;
  /** Ayah's answer to the message. */
  answer: string;
}

export type AlertAction = 'acknowledge' | 'resolve' | 'false_positive';

const TRANSITIONS: Record<AlertAction, { from: AlertStatus[]; to: AlertStatus; event: string }> = {
  acknowledge: { from: ['open'], to: 'acknowledged', event: 'acknowledged' },
  resolve: { from: ['open', 'acknowledged'], to: 'resolved', event: 'resolved' },
  false_positive: { from: ['open', 'acknowledged'], to: 'false_positive', event: 'false_positive' },
};
const OPEN: AlertStatus[] = ['open', 'acknowledged'];

export function createAlertService(deps: Pick<Deps, 'db' | 'now' | 'config'>) {
  const { db, now, config } = deps;
  const contacts = new Set(config.classes.safetyContacts);

  /** Administrators of any class and verified accounts named in AYAH_SAFETY_CONTACTS see every alert. */
  async function isSchoolContact(user: User): Promise<boolean> {
    if (user.email && user.emailVerifiedAt && contacts.has(user.email.toLowerCase())) return true;
    const [admin] = await db
      .select({ id: classMembers.classId })
      .from(classMembers)
      .where(and(eq(classMembers.userId, user.id), eq(classMembers.role, 'administrator')))
      .limit(1);
    return admin !== undefined;
  }

  /** The alerts `user` may see, as a condition; null when they may see none. */
  async function visibleTo(user: User): Promise<SQL | undefined | null> {
    if (await isSchoolContact(user)) return undefined;
    const taught = await db
      .select({ id: classMembers.classId })
      .from(classMembers)
      .where(and(eq(classMembers.userId, user.id), eq(classMembers.role, 'instructor')));
    if (taught.length === 0) return null;
    return inArray(
      safetyAlerts.classId,
      taught.map((t) => t.id),
    );
  }

  /** Whom a new alert of `classId` is mailed to: lower-cased, each once. */
  async function recipients(q: Queryable, classId: string): Promise<string[]> {
    const rows = await q
      .selectDistinct({ email: users.email })
      .from(classMembers)
      .innerJoin(users, eq(users.id, classMembers.userId))
      .where(
        sql`(${classMembers.classId} = ${classId} and ${classMembers.role} = 'instructor') or ${classMembers.role} = 'administrator'`,
      );
    const all = [...rows.map((r) => r.email?.toLowerCase() ?? ''), ...contacts].filter(Boolean);
    return [...new Set(all)];
  }

  const unread = (viewerId: string) =>
    sql<boolean>`not exists (select 1 from ${safetyAlertEvents} e where e.alert_id = ${safetyAlerts.id} and e.actor_id = ${viewerId} and e.action = 'viewed' and e.created_at >= ${safetyAlerts.lastFlagAt})`;

  const summaryColumns = (viewerId: string) => ({
    id: safetyAlerts.id,
    classId: safetyAlerts.classId,
    className: classes.name,
    studentId: safetyAlerts.studentId,
    studentName: users.displayName,
    category: safetyAlerts.category,
    categories: safetyAlerts.categories,
    severity: safetyAlerts.severity,
    status: safetyAlerts.status,
    flags: safetyAlerts.flags,
    note: safetyAlerts.note,
    createdAt: safetyAlerts.createdAt,
    lastFlagAt: safetyAlerts.lastFlagAt,
    unread: unread(viewerId),
  });
  interface Summary {
    id: string;
    classId: string;
    className: string;
    studentId: string | null;
    studentName: string | null;
    category: AlertCategory;
    categories: string[];
    severity: AlertSeverity;
    status: AlertStatus;
    flags: number;
    note: string | null;
    createdAt: Date;
    lastFlagAt: Date;
    unread: boolean;
  }

  const summary = (row: Summary) => ({
    id: row.id,
    class: { id: row.classId, name: row.className },
    student: row.studentId
      ? { id: row.studentId, name: row.studentName ?? '' }
      : { id: null, name: ALERT_MESSAGES.deletedStudent },
    category: row.category,
    categories: row.categories,
    severity: row.severity,
    status: row.status,
    flags: row.flags,
    note: row.note,
    created_at: row.createdAt.toISOString(),
    last_flag_at: row.lastFlagAt.toISOString(),
    unread: row.unread,
  });

  async function record(
    q: Queryable,
    alertId: string,
    actor: User | null,
    action: string,
    note?: string | null,
  ) {
    await q.insert(safetyAlertEvents).values({
      alertId,
      actorId: actor?.id ?? null,
      actorName: actor?.displayName ?? 'Ayah',
      action,
      note: note ?? null,
      createdAt: now(),
    });
  }

  async function visibleAlert(user: User, alertId: string) {
    const where = await visibleTo(user);
    if (where === null) throw new AppError(404, ALERT_MESSAGES.notFound);
    const [row] = await db
      .select(summaryColumns(user.id))
      .from(safetyAlerts)
      .innerJoin(classes, eq(classes.id, safetyAlerts.classId))
      .leftJoin(users, eq(users.id, safetyAlerts.studentId))
      .where(and(eq(safetyAlerts.id, alertId), where))
      .limit(1);
    if (!row) throw new AppError(404, ALERT_MESSAGES.notFound);
    return row as Summary;
  }

  return {
    isSchoolContact,

    /**
     * A student's flagged message: an alert in each class they learn in (null when they are in
     * none: standalone students keep helplines and no alert). Answers the alerts raised or updated,
     * and those whose mails are now due.
     */
    async raise(input: RaiseInput): Promise<{ alertIds: string[] } | null> {
      const memberships = await db
        .select({ classId: classMembers.classId })
        .from(classMembers)
        .where(and(eq(classMembers.userId, input.studentId), eq(classMembers.role, 'learner')));
      if (memberships.length === 0) return null;
      const severity = SEVERITY[input.category];
      const alertIds: string[] = [];
      for (const { classId } of memberships) {
        const id = await transaction(db, async (tx) => {
          // One flag at a time per student, so two quick flags never make two alerts.
          await lockUser(tx, input.studentId);
          const at = now();
          const [current] = input.sessionId
            ? await tx
                .select()
                .from(safetyAlerts)
                .where(
                  and(
                    eq(safetyAlerts.classId, classId),
                    eq(safetyAlerts.studentId, input.studentId),
                    eq(safetyAlerts.sessionId, input.sessionId),
                    inArray(safetyAlerts.status, OPEN),
                    gte(safetyAlerts.lastFlagAt, new Date(at.getTime() - ALERT_WINDOW_MS)),
                  ),
                )
                .orderBy(desc(safetyAlerts.lastFlagAt))
                .limit(1)
            : [];
          let alertId: string;
          if (current) {
            const higher = RANK[severity] > RANK[current.severity];
            await tx
              .update(safetyAlerts)
              .set({
                flags: sql`${safetyAlerts.flags} + 1`,
                lastFlagAt: at,
                updatedAt: at,
                categories: [...new Set([...current.categories, ...input.categories])],
                ...(higher ? { severity, category: input.category } : {}),
              })
              .where(eq(safetyAlerts.id, current.id));
            alertId = current.id;
            await record(tx, alertId, null, 'flagged_again');
          } else {
            const [created] = await tx
              .insert(safetyAlerts)
              .values({
                classId,
                studentId: input.studentId,
                sessionId: input.sessionId,
                category: input.category,
                categories: input.categories,
                severity,
                createdAt: at,
                lastFlagAt: at,
                updatedAt: at,
              })
              .returning({ id: safetyAlerts.id });
            alertId = created!.id;
            await record(tx, alertId, null, 'created');
            const to = await recipients(tx, classId);
            if (to.length > 0)
              await tx
                .insert(safetyAlertDeliveries)
                .values(
                  to.map((recipient) => ({ alertId, recipient, nextAttemptAt: at, createdAt: at })),
                )
                .onConflictDoNothing();
          }
          await tx.insert(safetyAlertMessages).values({
            alertId,
            userId: input.studentId,
            message: input.message,
            answer: input.answer,
            categories: input.categories,
            createdAt: at,
          });
          return alertId;
        });
        alertIds.push(id);
      }
      return { alertIds };
    },

    /** The alerts `user` may see, newest first (of one class when `classId` is given). */
    async list(
      user: User,
      filter: { classId?: string | undefined; status?: AlertStatus | undefined },
    ) {
      const where = await visibleTo(user);
      if (where === null) return { alerts: [], unread: 0 };
      const rows = (await db
        .select(summaryColumns(user.id))
        .from(safetyAlerts)
        .innerJoin(classes, eq(classes.id, safetyAlerts.classId))
        .leftJoin(users, eq(users.id, safetyAlerts.studentId))
        .where(
          and(
            where,
            filter.classId ? eq(safetyAlerts.classId, filter.classId) : undefined,
            filter.status ? eq(safetyAlerts.status, filter.status) : undefined,
          ),
        )
        .orderBy(desc(safetyAlerts.lastFlagAt), desc(safetyAlerts.id))
        .limit(500)) as Summary[];
      const alerts = rows.map(summary);
      return { alerts, unread: alerts.filter((a) => a.unread).length };
    },

    async unreadCount(user: User): Promise<number> {
      const where = await visibleTo(user);
      if (where === null) return 0;
      const [row] = await db
        .select({ n: sql<string>`count(*)` })
        .from(safetyAlerts)
        .where(and(where, unread(user.id)));
      return Number(row?.n ?? 0);
    },

    /** One alert with its messages, its record and its mails; reading it is recorded. */
    async detail(user: User, alertId: string) {
      const row = await visibleAlert(user, alertId);
      await record(db, alertId, user, 'viewed');
      return full(row);
    },

    /** Acknowledge, resolve with a note, or mark as a false positive; recorded with who and when. */
    async act(user: User, alertId: string, action: AlertAction, note: string | null) {
      await visibleAlert(user, alertId);
      const step = TRANSITIONS[action];
      await transaction(db, async (tx) => {
        const [changed] = await tx
          .update(safetyAlerts)
          .set({
            status: step.to,
            updatedAt: now(),
            ...(action === 'acknowledge' ? {} : { note }),
          })
          .where(and(eq(safetyAlerts.id, alertId), inArray(safetyAlerts.status, step.from)))
          .returning({ id: safetyAlerts.id });
        if (!changed) throw new AppError(409, ALERT_MESSAGES.closed);
        await record(tx, alertId, user, step.event, note);
      });
      return full(await visibleAlert(user, alertId));
    },
  };

  async function full(row: Summary) {
    const alertId = row.id;
    const [messages, events, deliveries] = await Promise.all([
      db
        .select()
        .from(safetyAlertMessages)
        .where(eq(safetyAlertMessages.alertId, alertId))
        .orderBy(safetyAlertMessages.createdAt),
      db
        .select()
        .from(safetyAlertEvents)
        .where(eq(safetyAlertEvents.alertId, alertId))
        .orderBy(safetyAlertEvents.createdAt, safetyAlertEvents.id),
      db
        .select()
        .from(safetyAlertDeliveries)
        .where(eq(safetyAlertDeliveries.alertId, alertId))
        .orderBy(safetyAlertDeliveries.recipient),
    ]);
    return {
      ...summary({ ...row, unread: false }),
      messages: messages.map((m) => ({
        message: m.message,
        answer: m.answer,
        categories: m.categories,
        created_at: m.createdAt.toISOString(),
      })),
      events: events.map((e) => ({
        actor: e.actorName,
        action: e.action,
        note: e.note,
        created_at: e.createdAt.toISOString(),
      })),
      deliveries: deliveries.map((d) => ({
        recipient: d.recipient,
        status: d.status,
        attempts: d.attempts,
        last_error: d.lastError,
        sent_at: d.sentAt?.toISOString() ?? null,
      })),
    };
  }
}

export type AlertService = ReturnType<typeof createAlertService>;
