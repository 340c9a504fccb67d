import type { SnapshotFrom } from 'xstate';

import type { accountMachine } from './account.machine';

/** What the account section reads from the account machine, so the view names no state. */
type AccountSnapshot = Pick<SnapshotFrom<typeof accountMachine>, 'matches'>;

/** The data export is on its way. */
export const isExporting = (state: AccountSnapshot) => state.matches('exporting');

/** The account is being deleted. */
export const isDeleting = (state: AccountSnapshot) => state.matches('deleting');

/** The delete confirmation is open: asking, or deleting. */
export const isDeleteOpen = (state: AccountSnapshot) =>
  state.matches('confirmingDelete') || isDeleting(state);
