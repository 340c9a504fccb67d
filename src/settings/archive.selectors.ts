import type { SnapshotFrom } from 'xstate';

import type { archiveMachine } from './archive.machine';

/** What Data Controls read from the archive machine, so the view names no state path. */
type ArchiveSnapshot = Pick<SnapshotFrom<typeof archiveMachine>, 'matches'>;

/** The action `name` (e.g. 'deleteAll') is asking for confirmation or running: its dialog is open. */
export const isConfirming = (state: ArchiveSnapshot, name: string) =>
  state.matches({ action: { [name]: 'confirming' } } as never) ||
  state.matches({ action: { [name]: 'running' } } as never);

/** The archived list is loading. */
export const isListLoading = (state: ArchiveSnapshot) => state.matches({ list: 'loading' });

/** The archived list could not be loaded: the view offers a retry. */
export const listFailed = (state: ArchiveSnapshot) => state.matches({ list: 'failed' });
