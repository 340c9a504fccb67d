import { useActorRef, useSelector } from '@xstate/react';
import { type ReactNode, useCallback, useState } from 'react';

import { POINTS } from '../lib/limits';
import { WALLET_UI_MESSAGES as M } from '../lib/messages';
import { Button } from '../ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../ui/dialog';
import { followLink } from '../ui/follow-link';
import { useWalletRefresh } from './use-wallet-refresh';
import type { WalletAdapter } from './wallet.adapter';
import { walletLogic } from './wallet.machine';
import { loadFailed } from './wallet.selectors';
import { WalletBalances } from './WalletBalances';

export interface WalletDialogProps {
  /** The backend: `createHttpApi(…).wallet`, `guestWallet()`, or a fake. Read once, on mount. */
  adapter: WalletAdapter;
  /**
   * The element that opens it, e.g. a sidebar button. Without one, `open` opens it (a host that loads
   * the dialog on first use keeps its own button, and returns focus to it).
   * @default undefined
   */
  trigger?: ReactNode;
  /** Where 'Open wallet' goes; without it the link is not shown. @default undefined */
  walletHref?: string;
  /**
   * Client-side navigation for 'Open wallet' (e.g. your router's `navigate`); the dialog closes first.
   * Without it the link loads the page. @default undefined
   */
  onNavigate?: (href: string) => void;
  /** Whether it is open (controlled). @default undefined */
  open?: boolean;
  /** @default false */
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/**
 * The sidebar's wallet modal (spec section 2, "Sidebar and header"): the same balances as the wallet
 * page, read each time it opens (nothing is fetched while it is closed) and reloaded on
 * 'refresh-wallet' (after any award) while open.
 */
export function WalletDialog({
  adapter,
  trigger,
  walletHref,
  onNavigate,
  open: openProp,
  defaultOpen = false,
  onOpenChange,
}: WalletDialogProps) {
  const [ownOpen, setOwnOpen] = useState(defaultOpen);
  const open = openProp ?? ownOpen;
  const setOpen = (next: boolean) => {
    setOwnOpen(next);
    onOpenChange?.(next);
  };

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      {trigger && <DialogTrigger asChild>{trigger}</DialogTrigger>}
      <DialogContent data-slot="wallet-dialog">
        <DialogHeader>
          <DialogTitle>Wallet</DialogTitle>
          <DialogDescription>
            Your points and {POINTS.tokenName} tokens. {POINTS.pointsPerToken} points = 1{' '}
            {POINTS.tokenName}.
          </DialogDescription>
        </DialogHeader>
        <WalletDialogBalances adapter={adapter} />
        {walletHref && (
          <a
            href={walletHref}
            className="ay:text-sm ay:font-medium ay:text-primary ay:underline"
            onClick={(event) =>
              followLink(
                event,
                onNavigate &&
                  ((href) => {
                    setOpen(false);
                    onNavigate(href);
                  }),
              )
            }
          >
            Open wallet
          </a>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The balances, mounted with the open dialog: its machine reads them as it starts. */
function WalletDialogBalances({ adapter }: { adapter: WalletAdapter }) {
  const [logic] = useState(() => walletLogic(adapter));
  const actor = useActorRef(logic);
  const state = useSelector(actor, (snapshot) => snapshot);
  const refresh = useCallback(() => actor.send({ type: 'wallet.refresh' }), [actor]);
  useWalletRefresh(refresh);
  return loadFailed(state) ? (
    <div role="alert" className="ay:flex ay:flex-col ay:items-start ay:gap-2">
      <p className="ay:text-sm ay:text-destructive">{M.loadFailed}</p>
      <Button variant="outline" onClick={refresh}>
        Try again
      </Button>
    </div>
  ) : (
    <div aria-busy={state.hasTag('loading')}>
      <WalletBalances balance={state.context.balance} />
    </div>
  );
}
