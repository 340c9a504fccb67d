import { REFRESH_WALLET_EVENT } from './messages';

/**
 * Fires 'refresh-wallet': every mounted wallet and wallet modal reloads its balances. Here, under
 * every feature, so that the root entry's award refresh does not carry the wallet feature.
 */
export function refreshWallets(): void {
  window.dispatchEvent(new Event(REFRESH_WALLET_EVENT));
}
