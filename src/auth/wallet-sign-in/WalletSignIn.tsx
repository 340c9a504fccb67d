import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';

import { WALLET_MESSAGES } from '../../lib/messages';
import { Button } from '../../ui/button';
import { WalletIcon } from '../auth-icons';
import type { walletAuthMachine } from './wallet-sign-in.machine';
import {
  isConnected,
  isWalletBusy,
  walletProblem,
  walletProgress,
} from './wallet-sign-in.selectors';

const METAMASK_DOWNLOAD = 'https://metamask.io/download/';

export type WalletSignInProps = {
  actorRef: ActorRefFrom<typeof walletAuthMachine>;
};

/** The MetaMask choice: its button, what the wallet is waiting for, and why it failed. */
export function WalletSignIn({ actorRef }: WalletSignInProps) {
  const state = useSelector(actorRef, (snapshot) => snapshot);
  const problem = walletProblem(state);
  const missing = problem === WALLET_MESSAGES.metamaskMissing;

  return (
    <div data-slot="wallet-sign-in" className="ay:flex ay:flex-col ay:gap-2">
      <Button
        variant="outline"
        loading={isWalletBusy(state)}
        disabled={isConnected(state)}
        onClick={() => actorRef.send({ type: 'wallet.connect' })}
      >
        <WalletIcon />
        Continue with MetaMask
      </Button>
      <p role="status" className="ay:text-xs ay:text-muted-foreground">
        {walletProgress(state, shortAddress)}
      </p>
      {problem && (
        <p role="alert" className="ay:text-sm ay:font-medium ay:text-destructive">
          {problem}{' '}
          {missing && (
            <a
              href={METAMASK_DOWNLOAD}
              target="_blank"
              rel="noreferrer"
              className="ay:underline ay:underline-offset-4"
            >
              Get MetaMask<span className="ay:sr-only"> (opens in a new tab)</span>
            </a>
          )}
        </p>
      )}
    </div>
  );
}

/** 0x2c75…5c23 */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}
