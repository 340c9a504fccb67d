import type { SnapshotFrom } from 'xstate';

import type { resetPasswordMachine } from './reset-password.machine';

/** What the reset-password page reads from its machine, so it names no state. */
type ResetPasswordSnapshot = Pick<SnapshotFrom<typeof resetPasswordMachine>, 'hasTag'>;

/** The new password is being saved. */
export const isSaving = (state: ResetPasswordSnapshot) => state.hasTag('busy');
