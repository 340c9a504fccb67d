import { assign, emit, fromCallback, fromPromise } from 'xstate';

import { serverMessage } from '../../lib/http-errors';
import { TOAST } from '../../lib/limits';
import { AUTH_MESSAGES, WALLET_MESSAGES, wrongWalletAddress } from '../../lib/messages';
import { sameAddress } from '../../lib/wallet';
import type { AuthAdapter } from '../auth.adapter';
import { handOff, heldTokens, type SignInHost } from '../hand-off';
import {
  isUserRejection,
  readAccount,
  requestAccount,
  signMessage,
  WalletMissingError,
  type WalletSource,
  watchWallet,
} from './wallet-provider';
import { METAMASK_TOAST_ID, walletAuthSetup } from './wallet-sign-in.setup';

/**
 * Wallet sign-in (spec section 4, "Auth" and "Wallet state"): `connecting` (30 s), then, `linked` to
 * that account, `authorizing` (nonce, signature within 60 s, authenticate, session) and `connected`
 * for as long as the wallet's account is the registered one; another account means `disconnected`.
 */
export const walletAuthMachine = walletAuthSetup.createMachine({
  id: 'walletAuth',
  context: ({ input }) => ({
    registeredAddress: input?.registeredAddress ?? null,
    account: null,
    message: null,
    signature: null,
    token: null,
    refreshToken: null,
    error: null,
    warning: null,
  }),
  initial: 'start',
  states: {
    // A signed-in wallet user: check the wallet's account without prompting.
    start: { always: [{ guard: 'registered', target: 'linked.refreshing' }, { target: 'idle' }] },
    idle: { on: { 'wallet.connect': 'connecting' } },
    connecting: {
      tags: ['busy'],
      entry: [
        assign({ error: null, warning: null }),
        emit({
          type: 'toast.loading',
          id: METAMASK_TOAST_ID,
          message: AUTH_MESSAGES.walletConnecting,
          duration: TOAST.metamaskLoadingMs,
        }),
      ],
      exit: emit({ type: 'toast.dismiss', id: METAMASK_TOAST_ID }),
      invoke: {
        src: 'requestAccounts',
        onDone: [
          {
            guard: ({ event }) => !event.output,
            target: 'failed',
            actions: { type: 'setError', params: { message: WALLET_MESSAGES.noAccounts } },
          },
          {
            guard: ({ context, event }) =>
              context.registeredAddress !== null &&
              !sameAddress(event.output, context.registeredAddress),
            target: 'failed',
            actions: assign(({ context }) => ({
              error: wrongWalletAddress(context.registeredAddress ?? ''),
            })),
          },
          // Already signed in with this wallet: reconnecting needs no new signature.
          {
            guard: 'registered',
            target: 'linked.connected',
            actions: assign({ account: ({ event }) => event.output }),
          },
          { target: 'linked', actions: assign({ account: ({ event }) => event.output }) },
        ],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => connectError(event.error) }),
        },
      },
      after: {
        connectTimeout: {
          target: 'failed',
          actions: {
            type: 'setError',
            params: { message: AUTH_MESSAGES.walletConnectTimeout },
          },
        },
      },
    },
    linked: {
      invoke: { src: 'watchWallet' },
      initial: 'authorizing',
      on: {
        'wallet.accountsChanged': [
          { guard: 'accountStays', target: '.connected', actions: assign({ warning: null }) },
          { target: '.disconnected', actions: 'warnAccount' },
        ],
        'wallet.chainChanged': '.refreshing',
      },
      states: {
        authorizing: {
          tags: ['busy'],
          initial: 'requestingNonce',
          on: {
            // Mid sign-in, another account can only fail it; a chain change is irrelevant.
            'wallet.accountsChanged': [
              { guard: 'accountStays' },
              {
                target: '#walletAuth.failed',
                actions: assign(({ context }) => ({
                  error: wrongWalletAddress(context.registeredAddress ?? context.account ?? ''),
                })),
              },
            ],
            'wallet.chainChanged': {},
          },
          states: {
            requestingNonce: {
              invoke: {
                src: 'web3Nonce',
                input: ({ context }) => ({ wallet_address: context.account ?? '' }),
                onDone: {
                  target: 'signing',
                  actions: assign({ message: ({ event }) => event.output.message }),
                },
                onError: {
                  target: '#walletAuth.failed',
                  actions: assign({ error: ({ event }) => serverError(event.error) }),
                },
              },
            },
            signing: {
              invoke: {
                src: 'signMessage',
                input: ({ context }) => ({
                  message: context.message ?? '',
                  account: context.account ?? '',
                }),
                onDone: {
                  target: 'authenticating',
                  actions: assign({ signature: ({ event }) => event.output }),
                },
                onError: {
                  target: '#walletAuth.failed',
                  actions: assign({ error: ({ event }) => signError(event.error) }),
                },
              },
              after: {
                signTimeout: {
                  target: '#walletAuth.failed',
                  actions: {
                    type: 'setError',
                    params: { message: AUTH_MESSAGES.walletSignTimeout },
                  },
                },
              },
            },
            authenticating: {
              invoke: {
                src: 'web3Authenticate',
                input: ({ context }) => ({
                  wallet_address: context.account ?? '',
                  signature: context.signature ?? '',
                  message: context.message ?? '',
                }),
                onDone: {
                  target: 'signingIn',
                  actions: assign(({ context, event }) => ({
                    token: event.output.access_token,
                    refreshToken: event.output.refresh_token ?? null,
                    registeredAddress: event.output.user.wallet_address ?? context.account,
                  })),
                },
                onError: {
                  target: '#walletAuth.failed',
                  actions: assign({ error: ({ event }) => serverError(event.error) }),
                },
              },
            },
            signingIn: {
              invoke: {
                src: 'signIn',
                input: heldTokens,
                onDone: { target: '#walletAuth.linked.connected' },
                onError: {
                  target: '#walletAuth.failed',
                  actions: assign({ error: ({ event }) => serverError(event.error) }),
                },
              },
            },
          },
          exit: assign({ message: null, signature: null, token: null, refreshToken: null }),
        },
        connected: {},
        refreshing: {
          invoke: {
            src: 'readAccounts',
            onDone: [
              {
                guard: ({ context, event }) => sameAddress(event.output, context.registeredAddress),
                target: 'connected',
                actions: assign({ account: ({ event }) => event.output, warning: null }),
              },
              {
                target: 'disconnected',
                actions: assign(({ context, event }) => ({
                  account: event.output,
                  warning: event.output
                    ? wrongWalletAddress(context.registeredAddress ?? '')
                    : null,
                })),
              },
            ],
            onError: { target: 'disconnected' },
          },
        },
        disconnected: { on: { 'wallet.connect': '#walletAuth.connecting' } },
      },
    },
    failed: { on: { 'wallet.connect': 'connecting' } },
  },
});

/** What the wallet sign-in needs besides the adapter: the wallet, and the session to hand a token to. */
export type WalletAuthDeps = {
  /** @default window.ethereum, looked up on each use */
  provider?: WalletSource | undefined;
  signIn: SignInHost['signIn'];
};

/** The wallet sign-in machine over `adapter` and the wallet. */
export function walletAuthLogic(adapter: AuthAdapter, { provider, signIn }: WalletAuthDeps) {
  return walletAuthMachine.provide({
    actors: {
      requestAccounts: fromPromise(({ signal }) => requestAccount(provider, signal)),
      readAccounts: fromPromise(({ signal }) => readAccount(provider, signal)),
      web3Nonce: fromPromise(({ input, signal }) => adapter.web3Nonce(input, { signal })),
      signMessage: fromPromise(({ input, signal }) => signMessage(provider, input, signal)),
      web3Authenticate: fromPromise(({ input, signal }) =>
        adapter.web3Authenticate(input, { signal }),
      ),
      signIn: handOff({ signIn }),
      watchWallet: fromCallback(({ sendBack }) =>
        watchWallet(provider, {
          accountsChanged: (accounts) => sendBack({ type: 'wallet.accountsChanged', accounts }),
          chainChanged: (chainId) => sendBack({ type: 'wallet.chainChanged', chainId }),
        }),
      ),
    },
  });
}

function connectError(error: unknown): string {
  if (error instanceof WalletMissingError) return WALLET_MESSAGES.metamaskMissing;
  if (isUserRejection(error)) return WALLET_MESSAGES.connectionRejected;
  return errorText(error);
}

function signError(error: unknown): string {
  if (isUserRejection(error)) return WALLET_MESSAGES.signatureRejected;
  return errorText(error);
}

function serverError(error: unknown): string {
  return serverMessage(error, errorText(error));
}

function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : AUTH_MESSAGES.walletSignInFailed;
}
