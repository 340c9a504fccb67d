import type { SnapshotFrom } from 'xstate';

import type { signInMachine } from './sign-in.machine';

/** What the sign-in screen's views read from its machine, so none names a state. */
type SignInSnapshot = Pick<SnapshotFrom<typeof signInMachine>, 'matches' | 'hasTag'>;

/** Which view the screen shows: the choices (Google on its way counts), email, or forgot password. */
export const signInView = (state: SignInSnapshot): 'choices' | 'email' | 'forgotPassword' =>
  state.matches('choices') || state.matches('google')
    ? 'choices'
    : state.matches('forgotPassword')
      ? 'forgotPassword'
      : 'email';

/** The Google redirect is on its way. */
export const isGoogleBusy = (state: SignInSnapshot) => state.matches('google');

/** The verification mail is being sent again from the email form. */
export const isResending = (state: SignInSnapshot) => state.matches({ email: 'resending' });

/** The reset link was sent. */
export const resetLinkSent = (state: SignInSnapshot) => state.matches({ forgotPassword: 'sent' });

/** A form's submission is under way. */
export const isSubmitting = (state: SignInSnapshot) => state.hasTag('busy');
