import type { SnapshotFrom } from 'xstate';

import type { verifyEmailMachine } from './verify-email.machine';

/** What the verify-email page reads from its machine, so the view names no state. */
type VerifyEmailSnapshot = Pick<
  SnapshotFrom<typeof verifyEmailMachine>,
  'matches' | 'hasTag' | 'context'
>;

/** A link opened again once its account was verified: the page offers sign-in. */
export const isAlreadyVerified = (state: VerifyEmailSnapshot) => state.matches('alreadyVerified');

/** The emailed link is being checked or used, or could not be used. */
export const isCheckingLink = (state: VerifyEmailSnapshot) =>
  state.matches('verifying') || state.matches('verified') || linkFailed(state);

/** The emailed link could not be used: the page points to sign-in. */
export const linkFailed = (state: VerifyEmailSnapshot) => state.matches('linkFailed');

/**
 * The link verified another account than the one signed in: both accounts for the page's question
 * (the session stays until the student switches), else null.
 */
export const verifiedElsewhere = (state: VerifyEmailSnapshot) => {
  const { current, verified } = state.context;
  const shown =
    state.matches('verifiedElsewhere') || state.matches('keeping') || state.matches('kept');
  return shown && current && verified ? { current, verified } : null;
};

/** The student chose to stay: the link's sign-in is being dropped. */
export const isKeeping = (state: VerifyEmailSnapshot) =>
  state.matches('keeping') || state.matches('kept');

/** A resend is under way. */
export const isSending = (state: VerifyEmailSnapshot) => state.hasTag('busy');

/** The resend's banner is showing. */
export const resendSucceeded = (state: VerifyEmailSnapshot) => state.matches('success');

/** The resend failed: its message shows in red. */
export const resendFailed = (state: VerifyEmailSnapshot) => state.matches('error');
