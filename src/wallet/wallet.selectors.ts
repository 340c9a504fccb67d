import type { SnapshotFrom } from 'xstate';

import type { walletMachine } from './wallet.machine';

/** What the wallet views read from the wallet machine, so none names a state. */
type WalletSnapshot = Pick<SnapshotFrom<typeof walletMachine>, 'matches'>;

/** The balances could not be loaded: the view shows the error and a retry. */
export const loadFailed = (state: WalletSnapshot) => state.matches('failed');
