import { useEffect } from 'react';

import { REFRESH_WALLET_EVENT } from '../lib/messages';

/** Calls `refresh` whenever the host fires the window event 'refresh-wallet' (after any award). */
export function useWalletRefresh(refresh: () => void): void {
  useEffect(() => {
    window.addEventListener(REFRESH_WALLET_EVENT, refresh);
    return () => window.removeEventListener(REFRESH_WALLET_EVENT, refresh);
  }, [refresh]);
}
