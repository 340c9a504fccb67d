/**
 * Account farming (red team round 3, #6): new accounts per client address, whatever the sign-in kind,
 * are counted in `rate_limits`; beyond the limit a first sign-in is 429 and creates nothing, while
 * existing accounts of that address and other addresses go on signing in. Wallet, portal, Google (its
 * callback sends the limit's words back to the app's page) and LTI launches (a 429 page) share the
 * count. The limit is LIMIT here, not 100, so that no test makes a hundred accounts.
 */
import { randomUUID } from 'node:crypto';

import { count, eq } from 'drizzle-orm';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { JWT_TOKEN_TYPE } from '../../../server/auth/portal/service';
import { ltiUsers, portalIdentities, users } from '../../../server/db/schema';
import { TOO_MANY_NEW_ACCOUNTS } from '../../../server/http/rate-limit';
import { FakeLms } from '../fake-lms';
import type { FakeUser } from '../fake-oidc';
import { FakeOidcProvider } from '../fake-oidc';
import { FakePortal } from '../fake-portal';
import { describeServer, useTestServer } from '../harness';

const LIMIT = 2;
const portal = new FakePortal('RS256');
const google = new FakeOidcProvider();
const lms = new FakeLms();
let issuers = '';
beforeAll(async () => {
  await Promise.all([portal.start(), google.start(), lms.start()]);
  issuers = JSON.stringify([await portal.trusted('jwks')]);
});
afterAll(() => Promise.all([portal.close(), google.close(), lms.close()]));

const h = useTestServer({
  trustProxy: true,
  env: () => ({
    AYAH_TRUSTED_ISSUERS: issuers,
    ...google.env(),
    AYAH_LTI_PLATFORMS: JSON.stringify([lms.registration()]),
  }),
  limits: { newAccountsPerAddress: { limit: LIMIT, windowMs: 60 * 60_000 } },
});
beforeAll(() => {
  lms.toolJwksUrl = `${h.url}/api/v1/lti/jwks`;
});
const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

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

/**
 * A whole Google sign-in from `address`, as the browser makes it (login, consent, callback): the
 * parameters the callback sends the app's page, `code` or `error`.
 */
async function googleSignIn(user: FakeUser, address: string): Promise<URLSearchParams> {
  const headers = { 'x-forwarded-for': address };
  const clientState = randomUUID() + randomUUID();
  const start = await fetch(`${h.url}/api/v1/auth/google/login?client_state=${clientState}`, {
    redirect: 'manual',
    headers,
  });
  expect(start.status).toBe(302);
  const cookie = start.headers.get('set-cookie')!.split(';')[0]!;
  google.next = { user };
  const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location')!).searchParams;
  const query = new URLSearchParams({ code: back.get('code')!, state: back.get('state')! });
  const callback = await fetch(`${h.url}/api/v1/auth/google/callback?${query}`, {
    redirect: 'manual',
    headers: { ...headers, cookie },
  });
  expect(callback.status).toBe(302);
  return new URL(callback.headers.get('location')!).searchParams;
}

const googler = (): FakeUser => ({
  sub: `1${randomUUID().replace(/\D/g, '').slice(0, 20)}`,
  email: `${unique('googler')}@example.com`,
  email_verified: true,
  name: 'Gia Google',
});

/** A whole LTI launch of student `sub` from `address` (login, id_token, launch): the launch's answer. */
async function ltiLaunch(sub: string, address: string) {
  const params = new URLSearchParams({
    iss: lms.issuer,
    login_hint: 'hint',
    target_link_uri: 'http://app.test/assistant',
    client_id: lms.clientId,
    lti_deployment_id: lms.deploymentId,
  });
  const login = await fetch(`${h.url}/api/v1/lti/login?${params}`, { redirect: 'manual' });
  expect(login.status).toBe(302);
  const sent = new URL(login.headers.get('location')!).searchParams;
  const launch = await fetch(`${h.url}/api/v1/lti/launch`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': address,
      cookie: login.headers.get('set-cookie')!.split(';')[0]!,
    },
    body: new URLSearchParams({
      id_token: await lms.idToken({ sub }, sent.get('nonce')!),
      state: sent.get('state')!,
    }),
  });
  return { status: launch.status, text: await launch.text() };
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

  it('counts Google first sign-ins: past the limit the callback says why and creates nothing', async () => {
    const address = '198.51.100.43';
    expect((await walletSignIn(Wallet.createRandom(), address)).status).toBe(200);
    const first = googler();
    expect((await googleSignIn(first, address)).has('code')).toBe(true);
    const farmed = googler();
    const refused = await googleSignIn(farmed, address);
    expect(Object.fromEntries(refused)).toEqual({ error: TOO_MANY_NEW_ACCOUNTS });
    const [made] = await h.database.db
      .select({ n: count() })
      .from(users)
      .where(eq(users.googleSub, farmed.sub));
    expect(made!.n).toBe(0);
    // The known student signs in again from the same address; another address has its own count.
    expect((await googleSignIn(first, address)).has('code')).toBe(true);
    expect((await googleSignIn(farmed, '198.51.100.44')).has('code')).toBe(true);
  });

  it('counts LTI first launches: past the limit a 429 page, and no student made', async () => {
    const address = '198.51.100.45';
    expect((await walletSignIn(Wallet.createRandom(), address)).status).toBe(200);
    const first = unique('lti-student');
    const launched = await ltiLaunch(first, address);
    expect(launched.status, launched.text).toBe(200);
    const farmed = unique('lti-student');
    const refused = await ltiLaunch(farmed, address);
    expect(refused.status).toBe(429);
    expect(refused.text).toContain(TOO_MANY_NEW_ACCOUNTS);
    const [made] = await h.database.db
      .select({ n: count() })
      .from(ltiUsers)
      .where(eq(ltiUsers.subject, farmed));
    expect(made!.n).toBe(0);
    // The known student launches again from the same address; another address has its own count.
    expect((await ltiLaunch(first, address)).status).toBe(200);
    expect((await ltiLaunch(farmed, '198.51.100.46')).status).toBe(200);
  });
});
