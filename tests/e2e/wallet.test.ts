/**
 * Wallet sign-in end to end: the page gets a `window.ethereum` (EIP-1193) whose `personal_sign` is
 * answered in Node by a real ethers `Wallet`, so the server checks a genuine Sign-In with Ethereum
 * signature. A new wallet user ends signed in (at onboarding); a refused signature says so.
 */
import { getBytes, isHexString, Wallet } from 'ethers';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';

import { ALICE_KEY, BOB_KEY } from '../../fakes/eip1193';
import { completeOnboarding, expectAccessible, newPage } from './browser';
import { useProduct } from './product';

const e2e = useProduct();

type Injected = { address: string; rejectSign: boolean };

/**
 * A page whose `window.ethereum` is a MetaMask-like provider for `wallet`. Its signatures come from
 * Node through `__ayahSign`; the messages it was asked to sign are kept in `signed`.
 */
async function pageWithWallet(wallet: Wallet, { rejectSign = false } = {}) {
  const page = await newPage(e2e.browser);
  const signed: string[] = [];
  await page.exposeFunction('__ayahSign', async (data: string) => {
    const message = isHexString(data) ? getBytes(data) : data;
    signed.push(typeof message === 'string' ? message : new TextDecoder().decode(message));
    return wallet.signMessage(message);
  });
  await page.addInitScript(
    ({ address, rejectSign }: Injected) => {
      type Listener = (value: unknown) => void;
      const listeners = new Map<string, Set<Listener>>();
      const rpcError = (code: number, message: string) =>
        Object.assign(new Error(message), { code });
      const sign = (window as unknown as { __ayahSign: (data: string) => Promise<string> })
        .__ayahSign;
      const ethereum = {
        isMetaMask: true,
        async request({ method, params }: { method: string; params?: unknown[] }) {
          switch (method) {
            case 'eth_requestAccounts':
            case 'eth_accounts':
              return [address.toLowerCase()];
            case 'eth_chainId':
              return '0x1';
            case 'personal_sign': {
              if (rejectSign) throw rpcError(4001, 'User denied message signature.');
              const [data, account] = (params ?? []) as [string, string];
              if (account.toLowerCase() !== address.toLowerCase()) {
                throw rpcError(4100, 'The requested account has not been authorized.');
              }
              return sign(data);
            }
            default:
              throw rpcError(4200, `Unsupported method: ${method}`);
          }
        },
        on(event: string, listener: Listener) {
          if (!listeners.has(event)) listeners.set(event, new Set());
          listeners.get(event)!.add(listener);
        },
        removeListener(event: string, listener: Listener) {
          listeners.get(event)?.delete(listener);
        },
      };
      Object.defineProperty(window, 'ethereum', { value: ethereum, configurable: true });
    },
    { address: wallet.address, rejectSign } satisfies Injected,
  );
  return { page, signed };
}

async function continueWithMetaMask(page: Page) {
  await page.goto(`${e2e.product.url}/auth`);
  await page.getByRole('button', { name: 'Continue with MetaMask' }).click();
}

describe('wallet sign-in', () => {
  test('signs a new wallet user in with a genuine SIWE signature', async () => {
    const wallet = new Wallet(ALICE_KEY);
    const { page, signed } = await pageWithWallet(wallet);
    await continueWithMetaMask(page);
    // A wallet user is new: signed in, and sent through onboarding first.
    await page.waitForURL(/\/onboarding$/, { timeout: 20_000 });
    expect(signed).toHaveLength(1);
    const [message] = signed;
    const host = new URL(e2e.product.url).host;
    expect(message).toContain(`${host} wants you to sign in with your Ethereum account:`);
    expect(message).toContain(wallet.address);
    expect(message).toContain('Sign in to Ayah, your AI learning coach.');
    expect(message).toContain('Chain ID: 1');
    await expectAccessible(page, 'wallet-onboarding-desktop');

    // The session is real: the API knows this wallet's user.
    const token = await page.evaluate(() => localStorage.getItem('authToken'));
    expect(token).toBeTruthy();
    const me = await fetch(`${e2e.product.url}/api/v1/auth/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.status).toBe(200);
    const { user } = (await me.json()) as { user: { wallet_address: string; email: string } };
    expect(user.wallet_address).toBe(wallet.address.toLowerCase());
    expect(user.email).toBe('');

    // Through onboarding to the assistant, where the account is named after the wallet.
    await completeOnboarding(page);
    const short = `${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`;
    await page
      .getByRole('button', { name: /Account menu/ })
      .filter({ hasText: short })
      .waitFor();
    await page.context().close();
  }, 60_000);

  test('a refused signature says so and signs nobody in', async () => {
    const { page, signed } = await pageWithWallet(new Wallet(BOB_KEY), { rejectSign: true });
    await continueWithMetaMask(page);
    await page
      .getByRole('alert')
      .filter({ hasText: 'User rejected the signature request.' })
      .waitFor();
    expect(signed).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/auth');
    await page.getByRole('button', { name: 'Continue with MetaMask' }).waitFor();
    await expectAccessible(page, 'wallet-signature-rejected-desktop');
    await page.context().close();
  }, 60_000);
});
