import type { SnapshotFrom } from 'xstate';

import type { walletAuthMachine } from './wallet-sign-in.machine';

/** What the MetaMask choice reads from its machine, so the view names no state. */
type WalletAuthSnapshot = Pick<
  SnapshotFrom<typeof walletAuthMachine>,
  'matches' | 'hasTag' | 'context'
>;

/** What went wrong, in red: the failure, or the warning of a wallet that disconnected. */
export const walletProblem = (state: WalletAuthSnapshot) =>
  state.matches('failed')
    ? state.context.error
    : state.matches({ linked: 'disconnected' })
      ? state.context.warning
      : null;

/** The wallet is connecting, or the sign-in is under way. */
export const isWalletBusy = (state: WalletAuthSnapshot) => state.hasTag('busy');

/** Connected and signed in with the wallet: nothing more to press. */
export const isConnected = (state: WalletAuthSnapshot) => state.matches({ linked: 'connected' });

/** What the wallet waits for, in words; '' when nothing. */
export function walletProgress(state: WalletAuthSnapshot, short: (address: string) => string) {
  if (state.matches('connecting')) return 'Approve the connection in MetaMask…';
  if (state.matches({ linked: { authorizing: 'requestingNonce' } }))
    return 'Preparing your sign-in…';
  if (state.matches({ linked: { authorizing: 'signing' } })) {
    return 'Sign the message in MetaMask to continue…';
  }
  if (state.hasTag('busy')) return 'Signing you in…';
  if (isConnected(state) && state.context.account) {
    return `Connected as ${short(state.context.account)}`;
  }
  return '';
}
