import type { SnapshotFrom } from 'xstate';

import type { conversionMachine } from './conversion.machine';

/** What the conversion dialog reads from its machine, so it names no state. */
type ConversionSnapshot = Pick<SnapshotFrom<typeof conversionMachine>, 'matches'>;

/** The conversion modal is open: entering the amount, converting, or showing the result. */
export const isOpen = (state: ConversionSnapshot) => !state.matches('closed');

/** The result screen's status once the conversion was sent, or null while the amount is entered. */
export function resultStatus(state: ConversionSnapshot): 'success' | 'failed' | 'pending' | null {
  if (state.matches('success')) return 'success';
  if (state.matches('failed')) return 'failed';
  if (state.matches('pending')) return 'pending';
  return null;
}
