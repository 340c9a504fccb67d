import type { SnapshotFrom } from 'xstate';

import type { boardMachine } from './board.machine';
import type { Celebration } from './goals.adapter';

/** What the goals views read from the board machine, so none names a state. */
type BoardSnapshot = Pick<SnapshotFrom<typeof boardMachine>, 'matches' | 'context'>;

/** No dialog is open: a card's actions may open one. */
export const noDialogOpen = (s: BoardSnapshot) => s.matches({ dialog: 'closed' });
/** The goal wizard is open. */
export const isCreating = (s: BoardSnapshot) => s.matches({ dialog: 'wizard' });
/** The log-progress dialog is open. */
export const isLogging = (s: BoardSnapshot) => s.matches({ dialog: 'logging' });
/** The edit dialog is open (also while its goal is locked from editing). */
export const isEditing = (s: BoardSnapshot) =>
  s.matches({ dialog: 'editing' }) || s.matches({ dialog: 'locked' });
/** The goal being edited has progress logged, so only some fields may change. */
export const isEditLocked = (s: BoardSnapshot) => s.matches({ dialog: 'locked' });
/** The delete confirmation is open. */
export const isDeleting = (s: BoardSnapshot) => s.matches({ dialog: 'deleting' });
/** The progress history is open. */
export const isShowingHistory = (s: BoardSnapshot) => s.matches({ dialog: 'history' });

/** Where the progress history stands: its entries, loading them, or failed to. */
export function historyStatus(s: BoardSnapshot): 'failed' | 'loading' | 'loaded' {
  if (s.matches({ dialog: { history: 'failed' } })) return 'failed';
  if (s.matches({ dialog: { history: 'loading' } })) return 'loading';
  return 'loaded';
}

/** Where the board's list stands; 'loading' only while there is nothing to show yet. */
export function listStatus(s: BoardSnapshot): 'failed' | 'loading' | 'ready' {
  if (s.matches({ goals: 'failed' })) return 'failed';
  if (s.matches({ goals: 'loading' }) && s.context.goals.length === 0) return 'loading';
  return 'ready';
}

/** The celebration on screen, if one is showing. */
export const shownCelebration = (s: BoardSnapshot): Celebration | null =>
  s.matches({ celebration: 'showing' }) ? (s.context.celebrations[0] ?? null) : null;
