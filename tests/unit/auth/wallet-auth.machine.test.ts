import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { verifyMessage, Wallet } from 'ethers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';

import { apiError, deferred, fakeAuthAdapter, rejects, TOKEN } from '../../../fakes/auth';
import { ALICE_KEY, BOB_KEY, fakeEip1193, type WalletMode } from '../../../fakes/eip1193';
import type { Web3AuthenticateRequest } from '../../../src/auth/auth.adapter';
import {
  walletAuthLogic,
  walletAuthMachine,
} from '../../../src/auth/wallet-sign-in/wallet-sign-in.machine';
import { AUTH_MESSAGES } from '../../../src/lib/messages';
import { settle, start } from './support';

const alice = new Wallet(ALICE_KEY);
const bob = new Wallet(BOB_KEY);

afterEach(() => {
  vi.useRealTimers();
});

function wallet({
  mode = 'ok' as WalletMode,
  adapter = fakeAuthAdapter(),
  registeredAddress = undefined as string | undefined,
  signIn = (_token: string): unknown => undefined,
  provider = fakeEip1193({ mode }) as ReturnType<typeof fakeEip1193> | null,
} = {}) {
  const started = start(walletAuthLogic(adapter, { provider, signIn }), {
    input: { registeredAddress },
  });
  return { ...started, adapter, provider: provider! };
}

const error = (actor: { getSnapshot(): { context: { error: string | null } } }) =>
  actor.getSnapshot().context.error;

describe('wallet sign-in: connecting', () => {
  it('starts idle and connects on wallet.connect, with a 5000 ms loading toast', () => {
    const { actor, notices } = wallet({ mode: 'neverConnect' });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'wallet.connect' });
    expect(actor.getSnapshot().value).toBe('connecting');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(notices).toEqual([
      {
        type: 'toast.loading',
        id: 'ayah-metamask',
        message: AUTH_MESSAGES.walletConnecting,
        duration: 5000,
      },
    ]);
  });

  it('without a wallet: MetaMask is not installed', async () => {
    const { actor, notices } = wallet({ provider: null });
    actor.send({ type: 'wallet.connect' });
    await settle(actor, 'failed');
    expect(error(actor)).toBe('MetaMask is not installed. Please install MetaMask extension.');
    expect(notices.at(-1)).toEqual({ type: 'toast.dismiss', id: 'ayah-metamask' });
  });

  it('code 4001 on connect: User rejected the connection request.', async () => {
    const { actor } = wallet({ mode: 'rejectConnect' });
    actor.send({ type: 'wallet.connect' });
    await settle(actor, 'failed');
    expect(error(actor)).toBe('User rejected the connection request.');
  });

  it('no accounts: No accounts found...', async () => {
    const { actor } = wallet({ mode: 'noAccounts' });
    actor.send({ type: 'wallet.connect' });
    await settle(actor, 'failed');
    expect(error(actor)).toBe('No accounts found...');
  });

  it('gives up after 30 s without an answer', async () => {
    vi.useFakeTimers();
    const { actor } = wallet({ mode: 'neverConnect' });
    actor.send({ type: 'wallet.connect' });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(actor.getSnapshot().value).toBe('connecting');
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(error(actor)).toBe(AUTH_MESSAGES.walletConnectTimeout);
  });

  it('a failed attempt can be retried', async () => {
    const { actor, provider } = wallet({ mode: 'rejectConnect' });
    actor.send({ type: 'wallet.connect' });
    await settle(actor, 'failed');
    provider.mode = 'ok';
    actor.send({ type: 'wallet.connect' });
    expect(error(actor)).toBeNull();
    await settle(actor, { linked: 'connected' });
  });
});

describe('wallet sign-in: nonce, signature, authentication', () => {
  it('signs a real SIWE message whose signature recovers the address, then signs in', async () => {
    const bodies: Web3AuthenticateRequest[] = [];
    const adapter = fakeAuthAdapter({
      web3Authenticate: async (body) => {
        bodies.push(body);
        return {
          access_token: TOKEN,
          token_type: 'bearer',
          user: { ...(await fakeAuthAdapter().me()).user, wallet_address: body.wallet_address },
        };
      },
    });
    const tokens: string[] = [];
    const { actor } = wallet({ adapter, signIn: (token) => tokens.push(token) });
    actor.send({ type: 'wallet.connect' });
    await settle(actor, { linked: 'connected' });

    // The wallet answered in lower case; the server is given the EIP-55 checksummed address.
    expect(adapter.calls.map((call) => call.method)).toEqual(['web3Nonce', 'web3Authenticate']);
    expect(adapter.calls[0]!.body).toEqual({ wallet_address: alice.address });

    const [body] = bodies;
    expect(body!.message).toContain(
      `wants you to sign in with your Ethereum account:\n${alice.address}`,
    );
    expect(verifyMessage(body!.message, body!.signature)).toBe(alice.address);
    expect(body!.wallet_address).toBe(alice.address);
    expect(tokens).toEqual([TOKEN]);
    expect(actor.getSnapshot().context).toMatchObject({
      registeredAddress: alice.address,
      account: alice.address,
      message: null,
      signature: null,
      token: null,
    });
  });

  it('walks requestingNonce → signing → authenticating → signingIn', async () => {
    const nonce = deferred<{ message: string }>();
    const auth = deferred<never>();
    const session = deferred<void>();
    const adapter = fakeAuthAdapter({
      web3Nonce: () => nonce.promise,
      web3Authenticate: async (body) => {
        await auth.promise.catch(() => {});
        return fakeAuthAdapter().web3Authenticate(body);
      },
    });
    const { actor } = wallet({ adapter, signIn: () => session.promise });
    actor.send({ type: 'wallet.connect' });
    await settle(actor, { linked: { authorizing: 'requestingNonce' } });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);

    nonce.resolve({ message: 'localhost wants you to sign in' });
    await settle(actor, { linked: { authorizing: 'authenticating' } });
    auth.reject(new Error('go on'));
    await settle(actor, { linked: { authorizing: 'signingIn' } });
    session.resolve();
    await settle(actor, { linked: 'connected' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
  });

  it('code 4001 on signing: User rejected the signature request.', async () => {
    const { actor } = wallet({ mode: 'rejectSign' });
    actor.send({ type: 'wallet.connect' });
    await settle(actor, 'failed');
    expect(error(actor)).toBe('User rejected the signature request.');
  });

  it('gives up on the signature after 60 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { actor } = wallet({ mode: 'neverSign' });
    actor.send({ type: 'wallet.connect' });
    await waitFor(actor, (s) => s.matches({ linked: { authorizing: 'signing' } }));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(actor.getSnapshot().matches({ linked: { authorizing: 'signing' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(error(actor)).toBe(AUTH_MESSAGES.walletSignTimeout);
  });

  it('a refused nonce or authentication shows the server words', async () => {
    const refused = wallet({
      adapter: fakeAuthAdapter({ web3Authenticate: rejects(apiError(401, 'Invalid signature')) }),
    });
    refused.actor.send({ type: 'wallet.connect' });
    await settle(refused.actor, 'failed');
    expect(error(refused.actor)).toBe('Invalid signature');

    const down = wallet({ adapter: fakeAuthAdapter({ web3Nonce: rejects(apiError(503)) }) });
    down.actor.send({ type: 'wallet.connect' });
    await settle(down.actor, 'failed');
    expect(error(down.actor)).toBe('Server error. Please try again later.');
  });

  it('a session that cannot load the user fails the sign-in', async () => {
    const { actor } = wallet({
      signIn: () => Promise.reject(new Error('Could not load the user')),
    });
    actor.send({ type: 'wallet.connect' });
    await settle(actor, 'failed');
    expect(error(actor)).toBe('Could not load the user');
  });

  it('switching to another account mid sign-in fails it with the registered-address warning', async () => {
    const { actor, provider } = wallet({ mode: 'neverSign' });
    actor.send({ type: 'wallet.connect' });
    await settle(actor, { linked: { authorizing: 'signing' } });
    provider.switchChain('0x89');
    expect(actor.getSnapshot().matches({ linked: { authorizing: 'signing' } })).toBe(true);

    provider.switchAccount(bob);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(error(actor)).toBe(`Please connect to your registered wallet address: ${alice.address}`);
  });

  it('a wallet that signs with another account is caught before the server', async () => {
    const provider = fakeEip1193();
    const original = provider.request.bind(provider);
    provider.request = async (call) =>
      call.method === 'personal_sign' ? bob.signMessage('something else') : original(call);
    const { actor, adapter } = wallet({ provider });
    actor.send({ type: 'wallet.connect' });
    await settle(actor, 'failed');
    expect(error(actor)).toBe(`Please connect to your registered wallet address: ${alice.address}`);
    expect(adapter.calls.map((call) => call.method)).toEqual(['web3Nonce']);
  });
});

describe('wallet state: connected only on the registered address', () => {
  async function connected() {
    const started = wallet();
    started.actor.send({ type: 'wallet.connect' });
    await settle(started.actor, { linked: 'connected' });
    return started;
  }

  it('another account disconnects with a warning; the registered one reconnects', async () => {
    const { actor, provider } = await connected();
    provider.switchAccount(bob);
    expect(actor.getSnapshot().value).toEqual({ linked: 'disconnected' });
    expect(actor.getSnapshot().context.warning).toBe(
      `Please connect to your registered wallet address: ${alice.address}`,
    );
    provider.switchAccount(alice);
    expect(actor.getSnapshot().value).toEqual({ linked: 'connected' });
    expect(actor.getSnapshot().context.warning).toBeNull();
  });

  it('a locked wallet (no accounts) disconnects without a warning', async () => {
    const { actor, provider } = await connected();
    provider.switchAccount(null);
    expect(actor.getSnapshot().value).toEqual({ linked: 'disconnected' });
    expect(actor.getSnapshot().context.warning).toBeNull();
  });

  it('a chain change refreshes the state from the wallet', async () => {
    const { actor, provider } = await connected();
    const before = provider.requests.length;
    provider.switchChain('0x89');
    expect(actor.getSnapshot().value).toEqual({ linked: 'refreshing' });
    await settle(actor, { linked: 'connected' });
    expect(provider.requests.slice(before).map((r) => r.method)).toEqual(['eth_accounts']);
  });

  it('reconnecting from disconnected needs no new signature', async () => {
    const { actor, provider, adapter } = await connected();
    provider.switchAccount(bob);
    provider.switchAccount(alice);
    provider.switchAccount(bob);
    actor.send({ type: 'wallet.connect' });
    await settle(actor, 'failed');
    expect(error(actor)).toBe(`Please connect to your registered wallet address: ${alice.address}`);
    provider.switchAccount(alice);
    actor.send({ type: 'wallet.connect' });
    await settle(actor, { linked: 'connected' });
    expect(adapter.calls.filter((call) => call.method === 'web3Nonce')).toHaveLength(1);
  });

  it('stops listening to the wallet when stopped', async () => {
    const { actor, provider } = await connected();
    expect(provider.listenerCount('accountsChanged')).toBe(1);
    expect(provider.listenerCount('chainChanged')).toBe(1);
    actor.stop();
    expect(provider.listenerCount('accountsChanged')).toBe(0);
    expect(provider.listenerCount('chainChanged')).toBe(0);
  });

  describe('a signed-in wallet user (registered address given)', () => {
    it('checks the wallet without prompting: connected on the same address, any case', async () => {
      const provider = fakeEip1193();
      await provider.request({ method: 'eth_requestAccounts' });
      provider.requests.length = 0;
      const { actor } = wallet({ provider, registeredAddress: alice.address.toLowerCase() });
      expect(actor.getSnapshot().value).toEqual({ linked: 'refreshing' });
      await settle(actor, { linked: 'connected' });
      expect(provider.requests.map((r) => r.method)).toEqual(['eth_accounts']);
    });

    it('disconnected with a warning on another address', async () => {
      const provider = fakeEip1193({ wallet: bob });
      await provider.request({ method: 'eth_requestAccounts' });
      const { actor } = wallet({ provider, registeredAddress: alice.address });
      await settle(actor, { linked: 'disconnected' });
      expect(actor.getSnapshot().context.warning).toBe(
        `Please connect to your registered wallet address: ${alice.address}`,
      );
    });

    it('disconnected without a wallet', async () => {
      const { actor } = wallet({ provider: null, registeredAddress: alice.address });
      await settle(actor, { linked: 'disconnected' });
      expect(actor.getSnapshot().context.warning).toBeNull();
    });
  });
});

describe('wallet sign-in without its adapter', () => {
  it('fails loudly', async () => {
    const { actor } = start(walletAuthMachine, { input: undefined });
    actor.send({ type: 'wallet.connect' });
    await settle(actor, 'failed');
    expect(error(actor)).toBe('requestAccounts must be provided');
  });
});

describe('ethers stays out of the first page load', () => {
  it('no file of src/auth imports ethers statically', () => {
    const dir = path.resolve(__dirname, '../../../src/auth');
    // Every file under src/auth, its sub-folders included.
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) =>
      /\.tsx?$/.test(file),
    );
    const offenders = files.filter((file) =>
      /^\s*import(?!\s+type)[^;]*from\s+['"]ethers['"]/m.test(
        readFileSync(path.join(dir, file), 'utf8'),
      ),
    );
    expect(offenders).toEqual([]);
  });
});
