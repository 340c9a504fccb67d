import type { SnapshotFrom } from 'xstate';

import type { oauthCallbackMachine } from './oauth-callback.machine';

/** What the callback page reads from its machine, so the view names no state. */
type OAuthCallbackSnapshot = Pick<
  SnapshotFrom<typeof oauthCallbackMachine>,
  'matches' | 'hasTag' | 'context'
>;

/** The code is being exchanged, the session consulted, or the sign-in handed over. */
export const isWorking = (state: OAuthCallbackSnapshot) =>
  state.hasTag('busy') && !state.matches('keeping');

/** Signed in: the page is on its way to the app. */
export const isSignedIn = (state: OAuthCallbackSnapshot) => state.matches('done');

/** The sign-in failed: the reason, then /auth. */
export const hasFailed = (state: OAuthCallbackSnapshot) =>
  state.matches('failed') || state.matches('returned');

/** Both accounts when the page asks which to use (another account is signed in), else null. */
export const switchChoice = (state: OAuthCallbackSnapshot) => {
  const { current, incoming } = state.context;
  const asking = state.matches('confirmingSwitch') || state.matches('keeping');
  return asking && current && incoming ? { current, incoming: incoming.user } : null;
};

/** The student chose to stay: the unused sign-in is being dropped. */
export const isKeeping = (state: OAuthCallbackSnapshot) => state.matches('keeping');
