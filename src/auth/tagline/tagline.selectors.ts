import type { SnapshotFrom } from 'xstate';

import type { taglineMachine } from './tagline.machine';

/** What the tagline reads from its machine, so it names no state. */
type TaglineSnapshot = Pick<SnapshotFrom<typeof taglineMachine>, 'matches'>;

/** The line is being typed out. */
export const isTyping = (state: TaglineSnapshot) => state.matches('typing');

/** The whole line shows. */
export const isTyped = (state: TaglineSnapshot) => state.matches('done');
