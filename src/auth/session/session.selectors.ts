import type { SnapshotFrom } from 'xstate';

import type { sessionMachine } from './session.machine';

/** What the session's readers ask of its machine, so none names a state. */
type SessionSnapshot = Pick<SnapshotFrom<typeof sessionMachine>, 'matches'>;

/** The session still loads: the stored token is read, renewed or the user fetched. */
export const isSessionLoading = (state: SessionSnapshot) =>
  state.matches('start') || state.matches('loading');

/** A user is signed in (a guest otherwise). */
export const isSignedIn = (state: SessionSnapshot) => state.matches('signedIn');
