/**
 * Account farming (red team round 3, #6): new accounts per client address, whatever the sign-in kind,
 * are counted in `rate_limits`; beyond the limit a first sign-in is 429 and creates nothing, while
 * existing accounts of that address and other addresses go on signing in.
 */
import { randomUUID } from 'node:crypto';

import { count, eq } from 'drizzle-orm';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { JWT_TOKEN_TYPE } from '../../../server/auth/portal';
import { portalIdentities, users } from '../../../server/db/schema';
import { TOO_MANY_NEW_ACCOUNTS } from '../../../server/http/rate-limit';
import { FakePortal } from '../fake-portal';
import { describeServer, useServer } from '../harness';

const LIMIT = 2;
const portal = new FakePortal('RS256');
let issuers = '';
beforeAll(async () => {
  await portal.start();
  issuers = JSON.stringify([await portal.trusted('jwks')]);
});
afterAll(() => portal.close());

const h = useServer({
  trustProxy: true,
  env: () => ({ AYAH_TRUSTED_ISSUERS: issuers }),
  limits: { newAccountsPerAddress: { limit: LIMIT, windowMs: 60 * 60_000 } },
});
const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

async function walletSignIn(wallet: ReturnType<typeof Wallet.createRandom>, address: string) {
  const nonce = await h.post(
    '/api/v1/auth/web3/nonce',
    { wallet_address: wallet.address },
    from(address),
  );
  expect(nonce.status).toBe(200);
  const message = nonce.body.message as string;
  return h.post(
    '/api/v1/auth/web3/authenticate',
    { wallet_address: wallet.address, message, signature: await wallet.signMessage(message) },
    from(address),
  );
}

async function exchange(sub: string, address: string) {
  return h.post(
    '/api/v1/auth/token-exchange',
    { subject_token: await portal.assertion(sub), subject_token_type: JWT_TOKEN_TYPE },
    from(address),
  );
}

describeServer('new accounts per client address', () => {
  it('stops a client farming wallet accounts (429, nothing created); known wallets still sign in', async () => {
    const wallets = Array.from({ length: LIMIT + 1 }, () => Wallet.createRandom());
    const address = '198.51.100.40';
    for (const wallet of wallets.slice(0, LIMIT))
      expect((await walletSignIn(wallet, address)).status).toBe(200);
    const farmed = await walletSignIn(wallets[LIMIT]!, address);
    expect(farmed.status).toBe(429);
    expect(farmed.body).toEqual({ detail: TOO_MANY_NEW_ACCOUNTS });
    expect(Number(farmed.headers.get('retry-after'))).toBeGreaterThan(0);
    const [made] = await h.database.db
      .select({ n: count() })
      .from(users)
      .where(eq(users.walletAddress, wallets[LIMIT]!.address.toLowerCase()));
    expect(made!.n).toBe(0);
    // An account that exists is no new account; another address has its own count.
    expect((await walletSignIn(wallets[0]!, address)).status).toBe(200);
    expect((await walletSignIn(wallets[LIMIT]!, '198.51.100.41')).status).toBe(200);
  });

  it('counts portal first sign-ins on the same count as wallets', async () => {
    const address = '198.51.100.42';
    expect((await walletSignIn(Wallet.createRandom(), address)).status).toBe(200);
    const first = `student-${randomUUID().slice(0, 8)}`;
    expect((await exchange(first, address)).status).toBe(200);
    const farmed = `student-${randomUUID().slice(0, 8)}`;
    const refused = await exchange(farmed, address);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: TOO_MANY_NEW_ACCOUNTS });
    const [made] = await h.database.db
      .select({ n: count() })
      .from(portalIdentities)
      .where(eq(portalIdentities.subject, farmed));
    expect(made!.n).toBe(0);
    // The known student signs in again from the same address.
    expect((await exchange(first, address)).status).toBe(200);
  });
});
