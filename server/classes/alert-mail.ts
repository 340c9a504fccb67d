/**
 * The alert mails, delivered from the `safety_alert_deliveries` table: a row is written in the
 * transaction that raises the alert, tried at once (`deliverDue` right after), and retried with
 * backoff by the sweep (main.ts, every 15 s and at start), so a mail survives a restart. A failed try
 * is visible on the alert (status `failed`, its error). A row is claimed by moving its due time past
 * a lease, so two servers never send the same mail at once.
 *
 * The mail says who, when, the category and a link to the alert, never the message text.
 */
import type { AlertCategory } from 'ayah-coach/rules';
import { ALERT_CATEGORY_LABELS } from 'ayah-coach/rules';
import { and, asc, eq, lte, ne, sql } from 'drizzle-orm';

import { classes, safetyAlertDeliveries, safetyAlerts, users } from '../db/schema';
import type { Deps } from '../deps';
import type { AlertService, RaiseInput } from './alerts';

/** A claimed row is another server's for this long. */
const LEASE_MS = 2 * 60_000;
/** Tries before a mail is given up (the alert stays visible in /teach either way). */
export const MAX_ATTEMPTS = 8;
export const DELIVERY_SWEEP_MS = 15_000;

/** 30 s, 1 min, 2 min … at most 30 min after the n-th failed try. */
export const retryDelayMs = (attempts: number) =>
  Math.min(30 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function alertLink(publicUrl: string, classId: string, alertId: string): string {
  return `${publicUrl}/teach?class=${encodeURIComponent(classId)}&alert=${encodeURIComponent(alertId)}`;
}

export function createAlertMail(deps: Pick<Deps, 'db' | 'now' | 'config' | 'mailer' | 'logger'>) {
  const { db, now, config, mailer, logger } = deps;

  async function deliverOne(id: string): Promise<boolean> {
    const at = now();
    const [claimed] = await db
      .update(safetyAlertDeliveries)
      .set({
        attempts: sql`${safetyAlertDeliveries.attempts} + 1`,
        nextAttemptAt: new Date(at.getTime() + LEASE_MS),
      })
      .where(
        and(
          eq(safetyAlertDeliveries.id, id),
          ne(safetyAlertDeliveries.status, 'sent'),
          lte(safetyAlertDeliveries.nextAttemptAt, at),
        ),
      )
      .returning();
    if (!claimed) return false;
    const [alert] = await db
      .select({
        id: safetyAlerts.id,
        classId: safetyAlerts.classId,
        className: classes.name,
        category: safetyAlerts.category,
        severity: safetyAlerts.severity,
        createdAt: safetyAlerts.createdAt,
        student: users.displayName,
      })
      .from(safetyAlerts)
      .innerJoin(classes, eq(classes.id, safetyAlerts.classId))
      .leftJoin(users, eq(users.id, safetyAlerts.studentId))
      .where(eq(safetyAlerts.id, claimed.alertId));
    if (!alert) return false;
    const label = ALERT_CATEGORY_LABELS[alert.category as AlertCategory] ?? alert.category;
    const student = alert.student ?? 'A student';
    const when = alert.createdAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
    const link = alertLink(config.publicUrl, alert.classId, alert.id);
    const lines = [
      `Ayah flagged a message from ${student} in ${alert.className}.`,
      `When: ${when}`,
      `Category: ${label} (${alert.severity} severity)`,
      '',
      `Open the alert: ${link}`,
      '',
      'The message itself is shown only in Ayah, to staff who sign in.',
    ];
    try {
      await mailer.deliver({
        to: claimed.recipient,
        subject: `Ayah safety alert: ${label} in ${alert.className}`,
        text: lines.join('\n'),
        html: `<p>${escape(lines[0]!)}</p><p>${escape(lines[1]!)}<br>${escape(lines[2]!)}</p><p><a href="${escape(link)}">Open the alert</a></p><p>${escape(lines[6]!)}</p>`,
        link,
      });
      await db
        .update(safetyAlertDeliveries)
        .set({ status: 'sent', sentAt: now(), nextAttemptAt: null, lastError: null })
        .where(eq(safetyAlertDeliveries.id, id));
      return true;
    } catch (error) {
      const attempts = claimed.attempts;
      const retry = attempts < MAX_ATTEMPTS;
      logger.warn(
        `[alerts] mail to ${claimed.recipient} failed (try ${attempts}${retry ? '' : ', giving up'}): ${(error as Error).message}`,
      );
      await db
        .update(safetyAlertDeliveries)
        .set({
          status: 'failed',
          lastError: String((error as Error).message ?? error).slice(0, 500),
          nextAttemptAt: retry ? new Date(now().getTime() + retryDelayMs(attempts)) : null,
        })
        .where(eq(safetyAlertDeliveries.id, id));
      return false;
    }
  }

  return {
    /** Tries every mail that is due; answers how many went out. */
    async deliverDue(limit = 100): Promise<number> {
      const due = await db
        .select({ id: safetyAlertDeliveries.id })
        .from(safetyAlertDeliveries)
        .where(
          and(
            ne(safetyAlertDeliveries.status, 'sent'),
            lte(safetyAlertDeliveries.nextAttemptAt, now()),
          ),
        )
        .orderBy(asc(safetyAlertDeliveries.nextAttemptAt))
        .limit(limit);
      let sent = 0;
      for (const { id } of due) if (await deliverOne(id)) sent++;
      return sent;
    },
  };
}

export type AlertMail = ReturnType<typeof createAlertMail>;

/** Delivers due alert mails at start and every 15 s; answers a function that stops it. */
export function startAlertMailSweep(mail: AlertMail, logger: Deps['logger']) {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = mail
      .deliverDue()
      .catch((error: unknown) => logger.error('[alerts] delivering alert mails failed:', error));
  };
  tick();
  const timer = setInterval(tick, DELIVERY_SWEEP_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * The port the root hands the tutor: raises the alert, then tries its mails at once (in the
 * background: the student's answer never waits on a mail server).
 */
export function safetyAlertsPort(alerts: AlertService, mail: AlertMail, logger: Deps['logger']) {
  return {
    async raise(input: RaiseInput) {
      const raised = await alerts.raise(input);
      if (raised)
        void mail
          .deliverDue()
          .catch((error: unknown) =>
            logger.error('[alerts] delivering alert mails failed:', error),
          );
      return raised;
    },
  };
}
