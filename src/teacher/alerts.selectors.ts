import type { SnapshotFrom } from 'xstate';

import type { alertsMachine } from './alerts.machine';

type Snapshot = SnapshotFrom<typeof alertsMachine>;

export const isLoadingList = (s: Snapshot) => s.matches('loading');
export const hasFailed = (s: Snapshot) => s.matches('failed');
export const isOpening = (s: Snapshot) => s.matches('opening');
export const isActing = (s: Snapshot) => s.hasTag('busy');
export const openDetail = (s: Snapshot) =>
  s.matches('detail') || s.matches('acting') ? s.context.detail : null;
export const actionFailed = (s: Snapshot) => s.context.actionFailed;
export const unreadCount = (s: Snapshot) => s.context.unread;
/** Whether the open alert can still be acknowledged, resolved or marked. */
export const canAcknowledge = (s: Snapshot) => s.can({ type: 'alert.acknowledge' });
export const canClose = (s: Snapshot) => s.can({ type: 'alert.falsePositive', note: '' });
