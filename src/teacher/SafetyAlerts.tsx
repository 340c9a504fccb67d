import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useState } from 'react';

import { cn } from '../lib/cn';
import { ALERT_CATEGORY_LABELS, ALERT_STATUS_LABELS } from '../lib/safety';
import { Button } from '../ui/button';
import { AyahRoot, type Theme } from '../ui/root';
import { LoadingStatus } from '../ui/skeleton';
import { Textarea } from '../ui/textarea';
import { alertsLogic } from './alerts.machine';
import {
  actionFailed,
  canAcknowledge,
  canClose,
  hasFailed,
  isActing,
  isLoadingList,
  isOpening,
  openDetail,
  unreadCount,
} from './alerts.selectors';
import { LoadFailed } from './LoadFailed';
import type { AlertDetail } from './teacher.adapter';
import type { TeacherAdapter } from './teacher.adapter';

export interface SafetyAlertsProps {
  /** The backend: `createHttpApi(…).teacher`, or a fake. Read once, on mount. */
  adapter: TeacherAdapter;
  /** Only this class's alerts; @default every alert the caller may see */
  classId?: string | null;
  /** An alert to open at once (from a mail's link, `/teach?alert=…`). */
  alertId?: string | null;
  /** Told the unread count whenever it changes (for a navigation badge). */
  onUnreadChange?: (unread: number) => void;
  /** @default the enclosing Ayah root's theme, else 'light' */
  theme?: Theme;
  className?: string;
}

const time = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const ACTIONS: Record<string, string> = {
  created: 'Alert raised',
  flagged_again: 'Flagged again',
  viewed: 'Viewed',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
  false_positive: 'Marked as a false positive',
};

/**
 * Safety alerts for a class (or, for a safety contact, the school): newest first with an unread
 * count; an alert's detail shows the student, time, category, the flagged message and Ayah's
 * answer, and lets staff acknowledge, resolve with a note, or mark a false positive. The server
 * records every view and action with who and when; the record is shown under the alert.
 */
export function SafetyAlerts({
  adapter,
  classId,
  alertId,
  onUnreadChange,
  theme,
  className,
}: SafetyAlertsProps) {
  const [logic] = useState(() => alertsLogic(adapter));
  const actor = useActorRef(logic, { input: { classId, alertId } });
  const state = useSelector(actor, (s) => s);
  const headingId = useId();
  const unread = unreadCount(state);
  const detail = openDetail(state);

  // Told once the list is known (before, the count is not 0 but unknown).
  const listed = !isLoadingList(state) && !hasFailed(state);
  useEffect(() => {
    if (listed) onUnreadChange?.(unread);
  }, [listed, unread, onUnreadChange]);

  return (
    <AyahRoot
      theme={theme}
      data-slot="safety-alerts"
      aria-labelledby={headingId}
      className={cn('ay:flex ay:w-full ay:flex-col ay:gap-4', className)}
    >
      <h2 id={headingId} className="ay:text-xl ay:font-semibold">
        Safety alerts{' '}
        {unread > 0 && (
          <span className="ay:rounded-full ay:bg-primary ay:px-2 ay:text-sm ay:text-primary-foreground">
            {unread} unread
          </span>
        )}
      </h2>
      {isLoadingList(state) && <LoadingStatus label="Loading alerts…" />}
      {hasFailed(state) && (
        <LoadFailed onRetry={() => actor.send({ type: 'alerts.retry' })}>
          The alerts could not be loaded.
        </LoadFailed>
      )}
      {!isLoadingList(state) && !hasFailed(state) && state.context.alerts.length === 0 && (
        <p>No safety alerts. Ayah raises one when a student in your class may need help.</p>
      )}
      <div className="ay:grid ay:gap-4 ay:md:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        {state.context.alerts.length > 0 && (
          <ul aria-label="Alerts, newest first" className="ay:flex ay:flex-col ay:gap-2">
            {state.context.alerts.map((alert) => (
              <li key={alert.id}>
                <button
                  type="button"
                  aria-current={detail?.id === alert.id ? 'true' : undefined}
                  onClick={() => actor.send({ type: 'alert.open', alertId: alert.id })}
                  className={cn(
                    'ay:w-full ay:rounded-md ay:border ay:border-border ay:p-3 ay:text-left',
                    detail?.id === alert.id && 'ay:bg-muted',
                  )}
                >
                  <span className="ay:block ay:font-medium">
                    {alert.unread && <span className="ay:sr-only">Unread: </span>}
                    {alert.unread && (
                      <span aria-hidden="true" className="ay:mr-1 ay:text-primary">
                        ●
                      </span>
                    )}
                    {alert.student.name} · {ALERT_CATEGORY_LABELS[alert.category]}
                  </span>
                  <span className="ay:block ay:text-sm ay:text-muted-foreground">
                    {alert.class.name} · {time(alert.last_flag_at)} ·{' '}
                    {ALERT_STATUS_LABELS[alert.status]}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {isOpening(state) && <LoadingStatus label="Opening the alert…" />}
        {detail && (
          <AlertPanel
            detail={detail}
            busy={isActing(state)}
            failed={actionFailed(state)}
            canAcknowledge={canAcknowledge(state)}
            canClose={canClose(state)}
            onAcknowledge={() => actor.send({ type: 'alert.acknowledge' })}
            onResolve={(note) => actor.send({ type: 'alert.resolve', note })}
            onFalsePositive={(note) => actor.send({ type: 'alert.falsePositive', note })}
            onClose={() => actor.send({ type: 'alert.close' })}
          />
        )}
      </div>
    </AyahRoot>
  );
}

interface AlertPanelProps {
  detail: AlertDetail;
  busy: boolean;
  failed: boolean;
  canAcknowledge: boolean;
  canClose: boolean;
  onAcknowledge(): void;
  onResolve(note: string): void;
  onFalsePositive(note: string): void;
  onClose(): void;
}

function AlertPanel(props: AlertPanelProps) {
  const { detail, busy } = props;
  const [note, setNote] = useState('');
  const titleId = useId();
  const noteId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className="ay:flex ay:flex-col ay:gap-3 ay:rounded-md ay:border ay:border-border ay:p-4"
    >
      <div className="ay:flex ay:items-start ay:justify-between ay:gap-2">
        <h3 id={titleId} className="ay:text-lg ay:font-semibold">
          {detail.student.name}: {ALERT_CATEGORY_LABELS[detail.category]}
        </h3>
        <Button variant="ghost" size="sm" onClick={props.onClose}>
          Close
        </Button>
      </div>
      <dl className="ay:grid ay:grid-cols-[auto_1fr] ay:gap-x-3 ay:gap-y-1 ay:text-sm">
        <dt className="ay:font-medium">Class</dt>
        <dd>{detail.class.name}</dd>
        <dt className="ay:font-medium">First flagged</dt>
        <dd>{time(detail.created_at)}</dd>
        <dt className="ay:font-medium">Severity</dt>
        <dd>{detail.severity}</dd>
        <dt className="ay:font-medium">Status</dt>
        <dd>{ALERT_STATUS_LABELS[detail.status]}</dd>
        {detail.note && (
          <>
            <dt className="ay:font-medium">Note</dt>
            <dd>{detail.note}</dd>
          </>
        )}
      </dl>
      <h4 className="ay:font-medium">Flagged messages</h4>
      {detail.messages.length === 0 ? (
        <p className="ay:text-sm">The student deleted their account; the messages went with it.</p>
      ) : (
        <ol className="ay:flex ay:flex-col ay:gap-3">
          {detail.messages.map((m) => (
            <li key={m.created_at} className="ay:flex ay:flex-col ay:gap-1 ay:text-sm">
              <p>
                <span className="ay:font-medium">Student ({time(m.created_at)}):</span> {m.message}
              </p>
              <p className="ay:whitespace-pre-line ay:text-muted-foreground">
                <span className="ay:font-medium">Ayah:</span> {m.answer}
              </p>
            </li>
          ))}
        </ol>
      )}
      {props.failed && (
        <p role="alert" className="ay:text-sm ay:text-destructive">
          That did not work. Please try again.
        </p>
      )}
      {(props.canAcknowledge || props.canClose) && (
        <div className="ay:flex ay:flex-col ay:gap-2">
          {props.canAcknowledge && (
            <Button disabled={busy} onClick={props.onAcknowledge}>
              Acknowledge
            </Button>
          )}
          {props.canClose && (
            <>
              <label htmlFor={noteId} className="ay:text-sm ay:font-medium">
                Note (what was done)
              </label>
              <Textarea id={noteId} value={note} onChange={(e) => setNote(e.target.value)} />
              <div className="ay:flex ay:flex-wrap ay:gap-2">
                <Button disabled={busy || note.trim() === ''} onClick={() => props.onResolve(note)}>
                  Resolve
                </Button>
                <Button
                  variant="outline"
                  disabled={busy}
                  onClick={() => props.onFalsePositive(note)}
                >
                  Mark as false positive
                </Button>
              </div>
            </>
          )}
        </div>
      )}
      <h4 className="ay:font-medium">Record</h4>
      <ol className="ay:flex ay:flex-col ay:gap-1 ay:text-sm">
        {detail.events.map((e, i) => (
          <li key={`${e.created_at}-${i}`}>
            {time(e.created_at)}: {ACTIONS[e.action] ?? e.action} by {e.actor}
            {e.note ? ` (${e.note})` : ''}
          </li>
        ))}
      </ol>
      {detail.deliveries.length > 0 && (
        <>
          <h4 className="ay:font-medium">Emails</h4>
          <ul className="ay:flex ay:flex-col ay:gap-1 ay:text-sm">
            {detail.deliveries.map((d) => (
              <li key={d.recipient}>
                {d.recipient}:{' '}
                {d.status === 'sent'
                  ? 'sent'
                  : d.status === 'failed'
                    ? `failed after ${d.attempts} ${d.attempts === 1 ? 'try' : 'tries'}${d.last_error ? ` (${d.last_error})` : ''}; retrying`
                    : 'sending'}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
