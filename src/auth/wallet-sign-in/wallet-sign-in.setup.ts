import { assign, type EventObject, fromCallback, setup } from 'xstate';

import { WALLET } from '../../lib/limits';
import { wrongWalletAddress } from '../../lib/messages';
import { notProvided, stubActor } from '../../lib/stub-actor';
import { sameAddress } from '../../lib/wallet';
import type { AuthResponse, Web3AuthenticateRequest } from '../auth.adapter';
import { type AuthNotice } from '../auth.notices';
import type { WalletAuthContext, WalletAuthEvent, WalletAuthInput } from '../auth.types';
import { signInStub } from '../hand-off';

export const METAMASK_TOAST_ID = 'ayah-metamask';

/** Types, actors (stubs until they are provided), guards and actions of `walletAuthMachine`. */
export const walletAuthSetup = setup({
  types: {
    context: {} as WalletAuthContext,
    events: {} as WalletAuthEvent,
    input: {} as WalletAuthInput,
    emitted: {} as AuthNotice,
  },
  actors: {
    requestAccounts: stubActor<string | null>('requestAccounts'),
    readAccounts: stubActor<string | null>('readAccounts'),
    web3Nonce: stubActor<{ message: string }, { wallet_address: string }>('web3Nonce'),
    signMessage: stubActor<string, { message: string; account: string }>('signMessage'),
    web3Authenticate: stubActor<AuthResponse, Web3AuthenticateRequest>('web3Authenticate'),
    signIn: signInStub,
    watchWallet: fromCallback<EventObject>(() => {
      throw notProvided('watchWallet');
    }),
  },
  delays: { connectTimeout: WALLET.connectTimeoutMs, signTimeout: WALLET.signTimeoutMs },
  guards: {
    registered: ({ context }) => context.registeredAddress !== null,
    accountStays: ({ context, event }) =>
      event.type === 'wallet.accountsChanged' &&
      sameAddress(event.accounts[0], context.registeredAddress ?? context.account),
  },
  actions: {
    setError: assign((_, params: { message: string }) => ({
      error: params.message,
      warning: null,
    })),
    warnAccount: assign(({ context, event }) => {
      const account = event.type === 'wallet.accountsChanged' ? (event.accounts[0] ?? null) : null;
      const bound = context.registeredAddress ?? context.account ?? '';
      return { account, warning: account ? wrongWalletAddress(bound) : null };
    }),
  },
});
