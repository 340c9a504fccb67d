/**
 * An EIP-1193 provider (the interface MetaMask injects as `window.ethereum`) backed by real ethers
 * `Wallet`s: `personal_sign` produces genuine EIP-191 signatures that `ethers.verifyMessage` and the
 * server's SIWE check accept. Modes make it reject (code 4001, as MetaMask does), answer with no
 * accounts, or never answer.
 */
import { getBytes, isHexString, Wallet } from 'ethers';

import type { Eip1193Provider, Eip1193Request } from '../src/auth/wallet-sign-in/wallet-provider';

/** Fixed keys, so addresses are stable across runs (test keys: never hold anything). */
export const ALICE_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
export const BOB_KEY = '0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f';

export type WalletMode =
  'ok' | 'rejectConnect' | 'rejectSign' | 'noAccounts' | 'neverConnect' | 'neverSign';

export type FakeEip1193 = Eip1193Provider & {
  /** Every request, in order. */
  requests: Eip1193Request[];
  /** The wallet currently selected in the fake extension. */
  readonly wallet: Wallet;
  mode: WalletMode;
  /** Selects another account, as the user would in MetaMask (emits `accountsChanged`). */
  switchAccount(wallet: Wallet | null): void;
  /** Switches network (emits `chainChanged`). */
  switchChain(chainId: string): void;
  listenerCount(event: string): number;
};

/** An error shaped like MetaMask's (`code`, `message`). */
export function rpcError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

type Listener = (...args: never[]) => void;

export function fakeEip1193({
  wallet = new Wallet(ALICE_KEY),
  mode = 'ok',
  chainId = '0x1',
}: { wallet?: Wallet; mode?: WalletMode; chainId?: string } = {}): FakeEip1193 {
  const listeners = new Map<string, Set<Listener>>();
  let current: Wallet | null = wallet;
  let chain = chainId;
  let authorized = false;
  const requests: Eip1193Request[] = [];

  const emit = (event: string, value: unknown) => {
    for (const listener of listeners.get(event) ?? []) (listener as (v: unknown) => void)(value);
  };
  // MetaMask reports addresses in lower case.
  const accounts = () => (current && authorized ? [current.address.toLowerCase()] : []);

  const provider: FakeEip1193 = {
    requests,
    mode,
    get wallet() {
      if (!current) throw new Error('No account selected');
      return current;
    },
    async request(call) {
      requests.push(call);
      const params = (Array.isArray(call.params) ? call.params : []) as unknown[];
      switch (call.method) {
        case 'eth_requestAccounts':
          if (provider.mode === 'rejectConnect') throw rpcError(4001, 'User rejected the request.');
          if (provider.mode === 'neverConnect') return new Promise(() => {});
          if (provider.mode === 'noAccounts') return [];
          authorized = true;
          return accounts();
        case 'eth_accounts':
          return accounts();
        case 'eth_chainId':
          return chain;
        case 'personal_sign': {
          if (provider.mode === 'rejectSign')
            throw rpcError(4001, 'User denied message signature.');
          if (provider.mode === 'neverSign') return new Promise(() => {});
          const [data, address] = params as [string, string];
          if (!current || !authorized || address.toLowerCase() !== current.address.toLowerCase()) {
            throw rpcError(4100, 'The requested account has not been authorized by the user.');
          }
          return current.signMessage(isHexString(data) ? getBytes(data) : data);
        }
        default:
          throw rpcError(4200, `Unsupported method: ${call.method}`);
      }
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
    },
    switchAccount(next) {
      current = next;
      emit('accountsChanged', accounts());
    },
    switchChain(next) {
      chain = next;
      emit('chainChanged', next);
    },
    listenerCount(event) {
      return listeners.get(event)?.size ?? 0;
    },
  };
  return provider;
}
