import { useLocation } from 'wouter';
import { Button, createIcon } from 'ayah-coach';
import { WalletDialog } from 'ayah-coach/wallet';
import { useApi } from '../api';

const WalletIcon = createIcon(
  'WalletIcon',
  <>
    <path d="M3 7a2 2 0 0 1 2-2h13v4" />
    <path d="M3 7v11a2 2 0 0 0 2 2h15V9H5a2 2 0 0 1-2-2Z" />
    <path d="M16 14.5h.01" />
  </>,
);

/** The sidebar's wallet modal (spec: Sidebar and header): the balances, reloaded after every award. */
export function SidebarWallet() {
  const api = useApi();
  const [, navigate] = useLocation();
  return (
    <WalletDialog
      adapter={api.wallet}
      walletHref="/wallet"
      onNavigate={navigate}
      trigger={
        <Button variant="ghost" className="ay:w-full ay:justify-start ay:gap-2 ay:overflow-hidden">
          <WalletIcon className="ay:size-4" />
          Wallet
        </Button>
      }
    />
  );
}
