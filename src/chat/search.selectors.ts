import type { SnapshotFrom } from 'xstate';

import type { searchMachine } from './search.machine';

/** What the search dialog reads from the search machine, so it names no state. */
type SearchSnapshot = Pick<SnapshotFrom<typeof searchMachine>, 'matches'>;

/** Nothing typed yet: the dialog shows the recent chats. */
export const isBlank = (s: SearchSnapshot) => s.matches('idle');
/** The query found nothing: "No chats found". */
export const foundNothing = (s: SearchSnapshot) => s.matches('noResults');
