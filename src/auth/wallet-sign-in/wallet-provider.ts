import { type Eip1193Request, personalSign, request } from '../../lib/eip1193';
import { wrongWalletAddress } from '../../lib/messages';

export { type Eip1193Request, isUserRejection } from '../../lib/eip1193';

/**
 * The browser wallet as the wallet sign-in machine uses it: an EIP-1193 provider (MetaMask injects
 * one as `window.ethereum`), and ethers, which is loaded only when a wallet is used.
 */

/** An EIP-1193 provider: `request` plus the `accountsChanged` and `chainChanged` events. */
export interface Eip1193Provider {
  request(request: Eip1193Request): Promise<unknown>;
  on(event: string, listener: (...args: never[]) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * Where the provider comes from: a provider, `null` for none, or a function asked each time (MetaMask
 * may inject itself after the page loads).
 */
export type WalletSource = Eip1193Provider | null | (() => Eip1193Provider | null | undefined);

/** The page's injected provider, `window.ethereum`. */
export function injectedProvider(): Eip1193Provider | null {
  const ethereum = (globalThis as { ethereum?: unknown }).ethereum;
  return isProvider(ethereum) ? ethereum : null;
}

export function resolveProvider(source: WalletSource | undefined): Eip1193Provider | null {
  if (source === undefined) return injectedProvider();
  if (typeof source === 'function') return source() ?? null;
  return source;
}

/** There is no wallet in this browser. */
export class WalletMissingError extends Error {
  override readonly name = 'WalletMissingError';
  constructor() {
    super('No EIP-1193 wallet provider');
  }
}

/** Asks the wallet for its account (it may prompt); the address checksummed, or null for none. */
export async function requestAccount(
  source: WalletSource | undefined,
  signal: AbortSignal,
): Promise<string | null> {
  const provider = resolveProvider(source);
  if (!provider) throw new WalletMissingError();
  return checksummed(
    firstAccount(await request(provider, { method: 'eth_requestAccounts' }, signal)),
  );
}

/** The wallet's current account without prompting, or null (no wallet, locked, none shared). */
export async function readAccount(
  source: WalletSource | undefined,
  signal: AbortSignal,
): Promise<string | null> {
  const provider = resolveProvider(source);
  if (!provider) return null;
  return checksummed(firstAccount(await request(provider, { method: 'eth_accounts' }, signal)));
}

/**
 * Has the wallet sign `message` as `account` (EIP-191 `personal_sign`), and checks the signature
 * recovers that account: a wallet that signed with another one would only be refused by the server.
 */
export async function signMessage(
  source: WalletSource | undefined,
  { message, account }: { message: string; account: string },
  signal: AbortSignal,
): Promise<string> {
  const provider = resolveProvider(source);
  if (!provider) throw new WalletMissingError();
  const { verifyMessage } = await loadEthers();
  const signature = await personalSign(provider, { message, account }, signal);
  if (verifyMessage(message, signature).toLowerCase() !== account.toLowerCase()) {
    throw new Error(wrongWalletAddress(account));
  }
  return signature;
}

/** Listens to the wallet's account and chain changes; returns the unsubscribe. */
export function watchWallet(
  source: WalletSource | undefined,
  on: { accountsChanged(accounts: string[]): void; chainChanged(chainId: string): void },
): () => void {
  const provider = resolveProvider(source);
  if (!provider) return () => {};
  const onAccounts = (accounts: string[]) =>
    on.accountsChanged(Array.isArray(accounts) ? accounts : []);
  const onChain = (chainId: string) => on.chainChanged(chainId);
  provider.on('accountsChanged', onAccounts);
  provider.on('chainChanged', onChain);
  return () => {
    provider.removeListener('accountsChanged', onAccounts);
    provider.removeListener('chainChanged', onChain);
  };
}

async function checksummed(address: string | null): Promise<string | null> {
  if (!address) return null;
  const { getAddress } = await loadEthers();
  return getAddress(address.toLowerCase());
}

/** ethers, fetched on first use so it never weighs on the first page load. */
export function loadEthers() {
  return import('ethers');
}

function isProvider(value: unknown): value is Eip1193Provider {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { request?: unknown }).request === 'function'
  );
}

/** The first account of an `eth_accounts` / `eth_requestAccounts` answer, or null. */
export function firstAccount(accounts: unknown): string | null {
  if (!Array.isArray(accounts)) return null;
  const [first] = accounts as unknown[];
  return typeof first === 'string' && first !== '' ? first : null;
}
