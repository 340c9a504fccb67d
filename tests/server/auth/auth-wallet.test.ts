/**
 * Sign-In with Ethereum over real HTTP: messages the server writes, signed by real keys (ethers), and
 * every way to get it wrong: another signer, a tampered message, another site or chain, a reused,
 * expired or foreign nonce, and concurrent use of one signed message.
 */
import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { expect, it } from 'vitest';

import { WALLET_MESSAGES } from '../../../server/auth/wallet/service';
import { describeServer, STRONG_PASSWORD, useTestServer } from '../harness';

const h = useTestServer();
const WEB3 = '/api/v1/auth/web3';

async function nonceFor(address: string): Promise<string> {
  const reply = await h.post(`${WEB3}/nonce`, { wallet_address: address });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.message;
}

/** A message the server issued, signed by `wallet`. */
async function signed(wallet: Wallet | ReturnType<typeof Wallet.createRandom>) {
  const message = await nonceFor(wallet.address);
  return { wallet_address: wallet.address, message, signature: await wallet.signMessage(message) };
}

/** The server's message for `wallet` with some fields changed, signed by `wallet` itself. */
async function rewritten(
  wallet: ReturnType<typeof Wallet.createRandom>,
  changes: Partial<SiweMessage>,
) {
  const original = new SiweMessage(await nonceFor(wallet.address));
  const message = new SiweMessage({ ...original, ...changes }).prepareMessage();
  return { wallet_address: wallet.address, message, signature: await wallet.signMessage(message) };
}

const authenticate = (body: unknown) => h.post(`${WEB3}/authenticate`, body);

function expect401(reply: { status: number; body: unknown }, detail: string) {
  expect(reply.status).toBe(401);
  expect(reply.body).toEqual({ detail });
}

describeServer('wallet sign-in (EIP-4361)', () => {
  it('issues an EIP-4361 message for this site, with a fresh nonce for 10 minutes', async () => {
    const wallet = Wallet.createRandom();
    const before = Date.now();
    const text = await nonceFor(wallet.address.toLowerCase());
    const message = new SiweMessage(text);
    expect(message.domain).toBe('app.test');
    expect(message.uri).toBe('http://app.test');
    expect(message.address).toBe(wallet.address); // EIP-55 checksummed
    expect(message.chainId).toBe(1);
    expect(message.version).toBe('1');
    expect(message.statement).toBe(WALLET_MESSAGES.statement);
    expect(message.nonce).toMatch(/^[0-9a-f]{32}$/);
    const issued = Date.parse(message.issuedAt!);
    expect(issued).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(message.expirationTime!) - issued).toBe(10 * 60_000);
    // GET ?wallet_address= too; every message has its own nonce.
    const viaGet = await h.get(`${WEB3}/nonce?wallet_address=${wallet.address}`);
    expect(viaGet.status).toBe(200);
    expect(new SiweMessage(viaGet.body.message).nonce).not.toBe(message.nonce);
  });

  it('refuses a wallet address that is not 0x and 40 hex digits with 422', async () => {
    for (const bad of ['0x123', 'abc', `0x${'g'.repeat(40)}`, `0x${'a'.repeat(41)}`, '', 42]) {
      const post = await h.post(`${WEB3}/nonce`, { wallet_address: bad });
      expect(post.status, String(bad)).toBe(422);
      expect(post.body.detail[0].loc).toEqual(['body', 'wallet_address']);
      const get = await h.get(`${WEB3}/nonce?wallet_address=${encodeURIComponent(String(bad))}`);
      expect(get.status, String(bad)).toBe(422);
    }
    expect((await h.get(`${WEB3}/nonce`)).status).toBe(422);
    const body = await signed(Wallet.createRandom());
    expect((await authenticate({ ...body, wallet_address: '0x12' })).status).toBe(422);
    expect((await authenticate({ ...body, extra: 1 })).status).toBe(422);
  });

  it('signs a wallet in, creating its account once (no email, no password)', async () => {
    const wallet = Wallet.createRandom();
    const first = await authenticate(await signed(wallet));
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'bearer', access_token: expect.any(String) });
    expect(first.body.user).toMatchObject({
      email: '',
      wallet_address: wallet.address.toLowerCase(),
      is_google: false,
      display_name: `${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`,
    });
    const me = await h.get('/api/v1/auth/me', { token: first.body.access_token });
    expect(me.body.user.id).toBe(first.body.user.id);
    // The address in the body may be in any case.
    const body = await signed(wallet);
    const again = await authenticate({
      ...body,
      wallet_address: wallet.address.toUpperCase().replace('0X', '0x'),
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.user.id).toBe(first.body.user.id);
    // A wallet account has no password to change.
    const change = await h.post(
      '/api/v1/auth/change-password',
      { current_password: 'anything', new_password: STRONG_PASSWORD },
      { token: first.body.access_token },
    );
    expect(change.status).toBe(403);
    expect(change.body).toEqual({
      detail: 'Password change is not available for Google or wallet accounts',
    });
  });

  it('uses a nonce once, also under concurrent use', async () => {
    const body = await signed(Wallet.createRandom());
    const replies = await Promise.all(Array.from({ length: 6 }, () => authenticate(body)));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
    expect401(await authenticate(body), WALLET_MESSAGES.invalidNonce);
  });

  it('lets a nonce expire after 10 minutes', async () => {
    const body = await signed(Wallet.createRandom());
    h.advanceClock(10 * 60_000 + 1000);
    try {
      expect401(await authenticate(body), WALLET_MESSAGES.invalidNonce);
    } finally {
      h.resetClock();
    }
  });

  it('refuses another signer’s signature, a bad signature and a tampered message', async () => {
    const alice = Wallet.createRandom();
    const mallory = Wallet.createRandom();
    const body = await signed(alice);
    const byMallory = await mallory.signMessage(body.message);
    expect401(
      await authenticate({ ...body, signature: byMallory }),
      WALLET_MESSAGES.invalidSignature,
    );
    // Mallory claiming to be herself with Alice's message.
    expect401(
      await authenticate({ ...body, wallet_address: mallory.address, signature: byMallory }),
      WALLET_MESSAGES.otherAddress,
    );
    for (const signature of ['0x1234', 'not hex', `0x${'00'.repeat(65)}`]) {
      expect401(await authenticate({ ...body, signature }), WALLET_MESSAGES.invalidSignature);
    }
    const flipped =
      body.signature.slice(0, 10) +
      (body.signature[10] === 'a' ? 'b' : 'a') +
      body.signature.slice(11);
    expect((await authenticate({ ...body, signature: flipped })).status).toBe(401);
    // The message changed after signing: another statement, a later expiry.
    const message = new SiweMessage(body.message);
    const later = new SiweMessage({
      ...message,
      expirationTime: new Date(Date.now() + 86_400_000).toISOString(),
    }).prepareMessage();
    expect401(await authenticate({ ...body, message: later }), WALLET_MESSAGES.invalidSignature);
    expect401(
      await authenticate({
        ...body,
        message: body.message.replace('Sign in to Ayah', 'Send all to'),
      }),
      WALLET_MESSAGES.invalidMessage,
    );
    expect401(await authenticate({ ...body, message: 'hello' }), WALLET_MESSAGES.invalidMessage);
    // None of that used the nonce up: Alice's own signature still works, once.
    expect((await authenticate(body)).status).toBe(200);
  });

  it('refuses messages for another domain, URI or chain, even when properly signed', async () => {
    const wallet = Wallet.createRandom();
    for (const changes of [
      { domain: 'evil.example' },
      { uri: 'https://evil.example' },
      { chainId: 137 },
    ] as Partial<SiweMessage>[]) {
      const body = await rewritten(wallet, changes);
      expect401(await authenticate(body), WALLET_MESSAGES.otherSite);
    }
    // Nor a nonce issued for another address, or one the server never issued.
    const victim = Wallet.createRandom();
    const victimNonce = new SiweMessage(await nonceFor(victim.address)).nonce;
    expect401(
      await authenticate(await rewritten(wallet, { nonce: victimNonce })),
      WALLET_MESSAGES.invalidNonce,
    );
    expect401(
      await authenticate(await rewritten(wallet, { nonce: 'a'.repeat(32) })),
      WALLET_MESSAGES.invalidNonce,
    );
  });
});
