/**
 * Wallet sign-in's cost per client address (red team round 3, #14): `/web3/authenticate` and the
 * nonce routes are limited per address before the body is parsed or a signature checked, and the
 * message's size is bounded.
 */
import { expect, it } from 'vitest';

import { TOO_MANY_REQUESTS } from '../../../server/auth/throttle';
import { describeServer, isFastApiError, useTestServer } from '../harness';

const h = useTestServer({
  trustProxy: true,
  limits: { walletPerAddress: { limit: 3, windowMs: 60_000 } },
});
const W = '/api/v1/auth/web3';
const WALLET = '0x' + '1'.repeat(40);
const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

describeServer('wallet sign-in limits', () => {
  it('limits /web3/authenticate per address before parsing (429 + Retry-After), others go on', async () => {
    const attempt = { wallet_address: WALLET, signature: '0x00', message: 'not a SIWE message' };
    for (let i = 0; i < 3; i++)
      expect((await h.post(`${W}/authenticate`, attempt, from('198.51.100.7'))).status).toBe(401);
    // Even a body that would not parse is counted and refused before it is read.
    const limited = await h.request('POST', `${W}/authenticate`, undefined, {
      ...from('198.51.100.7'),
      raw: '{ not json',
      headers: { 'x-forwarded-for': '198.51.100.7', 'content-type': 'application/json' },
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ detail: TOO_MANY_REQUESTS });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await h.post(`${W}/authenticate`, attempt, from('198.51.100.8'))).status).toBe(401);
  });

  it('limits nonces per address too', async () => {
    const replies = [];
    for (let i = 0; i < 4; i++)
      replies.push(await h.post(`${W}/nonce`, { wallet_address: WALLET }, from('198.51.100.9')));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect((await h.get(`${W}/nonce?wallet_address=${WALLET}`, from('198.51.100.9'))).status).toBe(
      429,
    );
  });

  it('refuses a message over 2000 characters (422)', async () => {
    const reply = await h.post(
      `${W}/authenticate`,
      { wallet_address: WALLET, signature: '0x00', message: 'x'.repeat(2001) },
      from('198.51.100.10'),
    );
    expect(reply.status).toBe(422);
    expect(isFastApiError(reply.body)).toBe(true);
  });
});
