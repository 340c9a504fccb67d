import { useEffect } from 'react';
import { REFRESH_WALLET_EVENT } from '../lib/messages';

/** Calls `refresh` whenever the host fires the window event 'refresh-wallet' (after any award). */
export function useWalletRefresh(refresh: () => void): void {
  useEffect(() => {
    window.addEventListener(REFRESH_WALLET_EVENT, refresh);
    return () => window.removeEventListener(REFRESH_WALLET_EVENT, refresh);
  }, [refresh]);
}

/** Fires 'refresh-wallet': every mounted wallet and wallet modal reloads its balances. */
export function refreshWallets(): void {
  window.dispatchEvent(new Event(REFRESH_WALLET_EVENT));
}
