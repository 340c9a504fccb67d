import { useActorRef, useSelector } from '@xstate/react';
import { type Ref, useCallback, useEffect, useId, useImperativeHandle, useState } from 'react';

import { cn } from '../lib/cn';
import { POINTS } from '../lib/limits';
import { WALLET_UI_MESSAGES as M } from '../lib/messages';
import { Button } from '../ui/button';
import { pageTitleClass } from '../ui/page-title';
import { AyahRoot, type Theme } from '../ui/root';
import { LoadingStatus, Skeleton } from '../ui/skeleton';
import { conversionLogic } from './conversion.machine';
import { ConversionDialog } from './ConversionDialog';
import { useWalletRefresh } from './use-wallet-refresh';
import type { WalletAdapter } from './wallet.adapter';
import { walletLogic } from './wallet.machine';
import { loadFailed } from './wallet.selectors';
import { WalletActivityList } from './WalletActivityList';
import { WalletBalances } from './WalletBalances';

/** What a host can do to a mounted wallet. */
export type WalletHandle = {
  /** Reloads the balances and the activity. */
  refresh(): void;
};

export interface WalletProps {
  /** The backend: `createHttpApi(…).wallet`, `guestWallet()`, or a fake. Read once, on mount. */
  adapter: WalletAdapter;
  /** `refresh()` for the host; the window event 'refresh-wallet' does the same. */
  ref?: Ref<WalletHandle>;
  /**
   * Heading level of the page title; null for none, where the host's own heading titles the page
   * (the app's phone header). @default 'h1'
   */
  headingLevel?: 'h1' | 'h2' | null;
  /** @default the enclosing Ayah root's theme, else 'light' */
  theme?: Theme;
  className?: string;
}

/**
 * The wallet page (spec section 2): the points and AYAH balances, recent activity (paged), and the
 * conversion modal with its result. It reloads after a conversion and on 'refresh-wallet'.
 */
export function Wallet({ adapter, ref, headingLevel = 'h1', theme, className }: WalletProps) {
  const [logic] = useState(() => walletLogic(adapter));
  const [conversion] = useState(() => conversionLogic(adapter));
  const wallet = useActorRef(logic);
  const converter = useActorRef(conversion);
  const state = useSelector(wallet, (snapshot) => snapshot);
  const tokenName = useSelector(converter, (s) => s.context.info.token_name) || POINTS.tokenName;
  const headingId = useId();
  const activityId = useId();
  const Heading = headingLevel;

  const refresh = useCallback(() => wallet.send({ type: 'wallet.refresh' }), [wallet]);
  useImperativeHandle(ref, () => ({ refresh }), [refresh]);
  useWalletRefresh(refresh);
  useEffect(() => {
    const subscription = converter.on('balance.changed', refresh);
    return () => subscription.unsubscribe();
  }, [converter, refresh]);

  const { balance, activity, page, hasMore } = state.context;
  const loading = state.hasTag('loading') && balance === null;

  return (
    <AyahRoot
      theme={theme}
      data-slot="wallet"
      aria-labelledby={Heading ? headingId : undefined}
      className={cn('ay:flex ay:w-full ay:max-w-3xl ay:flex-col ay:gap-6 ay:p-4', className)}
    >
      <div className="ay:flex ay:flex-wrap ay:items-center ay:justify-between ay:gap-3">
        {Heading && (
          <Heading id={headingId} className={pageTitleClass}>
            Wallet
          </Heading>
        )}
        <Button
          disabled={balance === null}
          onClick={() =>
            balance && converter.send({ type: 'conversion.open', balance: balance.points })
          }
        >
          Convert to {tokenName}
        </Button>
      </div>
      {loadFailed(state) ? (
        <div role="alert" className="ay:flex ay:flex-col ay:items-start ay:gap-2">
          <p className="ay:text-sm ay:text-destructive">{M.loadFailed}</p>
          <Button variant="outline" onClick={refresh}>
            Try again
          </Button>
        </div>
      ) : loading ? (
        <LoadingStatus label="Loading wallet…">
          <WalletBalances balance={null} tokenName={tokenName} />
          <Skeleton className="ay:h-40 ay:w-full" />
        </LoadingStatus>
      ) : (
        <>
          <WalletBalances balance={balance} tokenName={tokenName} />
          <p className="ay:text-sm ay:text-muted-foreground">{M.tokenExplained(tokenName)}</p>
          <section aria-labelledby={activityId} className="ay:flex ay:flex-col ay:gap-2">
            <h2 id={activityId} className="ay:text-lg ay:font-semibold">
              Recent activity
            </h2>
            {activity.length === 0 ? (
              <p className="ay:text-sm ay:text-muted-foreground">{M.noActivity}</p>
            ) : (
              <WalletActivityList
                activity={activity}
                tokenName={tokenName}
                labelledBy={activityId}
              />
            )}
            {(page > 1 || hasMore) && (
              <nav aria-label="Activity pages" className="ay:flex ay:items-center ay:gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  disabled={!state.can({ type: 'activity.previous' })}
                  onClick={() => wallet.send({ type: 'activity.previous' })}
                >
                  Previous
                </Button>
                <span className="ay:text-sm">Page {page}</span>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={!state.can({ type: 'activity.next' })}
                  onClick={() => wallet.send({ type: 'activity.next' })}
                >
                  Next
                </Button>
              </nav>
            )}
          </section>
        </>
      )}
      <ConversionDialog actor={converter} />
    </AyahRoot>
  );
}
