import { WalletDialog, type WalletDialogProps } from 'ayah-coach/wallet';
import { useLocation } from 'wouter';

import { useApi } from '../api';

/**
 * The sidebar's wallet modal, its own chunk: SidebarWallet.tsx fetches it on first use. (A dynamic
 * import of `ayah-coach/wallet` itself would keep the whole entry, which the page already imports
 * from, in the page's own chunk.)
 */
export function WalletPopup({
  open,
  onOpenChange,
}: Required<Pick<WalletDialogProps, 'open' | 'onOpenChange'>>) {
  const api = useApi();
  const [, navigate] = useLocation();
  return (
    <WalletDialog
      adapter={api.wallet}
      walletHref="/wallet"
      onNavigate={navigate}
      open={open}
      onOpenChange={onOpenChange}
    />
  );
}
