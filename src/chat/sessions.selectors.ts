import type { SnapshotFrom } from 'xstate';

import type { sessionsMachine } from './sessions.machine';

/** What the sidebar's views read from the sessions machine, so none names a state. */
type SessionsSnapshot = Pick<SnapshotFrom<typeof sessionsMachine>, 'matches'>;

/** The rename dialog is open. */
export const isRenaming = (s: SessionsSnapshot) => s.matches({ action: 'renaming' });
/** The delete confirmation is open. */
export const isDeleting = (s: SessionsSnapshot) => s.matches({ action: 'deleting' });
/** No rename, delete or archive is under way: a chat's menu may start one. */
export const isIdle = (s: SessionsSnapshot) => s.matches({ action: 'idle' });
