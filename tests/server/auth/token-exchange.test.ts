/**
 * `POST /api/v1/auth/token-exchange` over real HTTP, on PGlite and PostgreSQL: a portal whose JWKS is
 * served over HTTP by the test (RS256), one configured by its PEM public key (ES256), and one nobody
 * trusts. Every refusal is `401 {detail}`; students are found or created by issuer + subject.
 */
import { randomUUID } from 'node:crypto';

import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { JWT_TOKEN_TYPE, PORTAL_MESSAGES } from '../../../server/auth/portal/service';
import { AUDIENCE, FakePortal, unsignedJwt } from '../fake-portal';
import { describeServer, isFastApiError, useTestServer } from '../harness';

const rsa = new FakePortal('RS256');
const ec = new FakePortal('ES256');
const stranger = new FakePortal('RS256');
let issuers = '';

beforeAll(async () => {
  await Promise.all([rsa.start(), ec.start(), stranger.start()]);
  issuers = JSON.stringify([await rsa.trusted('jwks'), await ec.trusted('pem')]);
});
afterAll(() => Promise.all([rsa.close(), ec.close(), stranger.close()]));

const h = useTestServer({ env: () => ({ AYAH_TRUSTED_ISSUERS: issuers }) });
const EXCHANGE = '/api/v1/auth/token-exchange';

const exchange = (subjectToken: string, tokenType: string = JWT_TOKEN_TYPE) =>
  h.post(EXCHANGE, { subject_token: subjectToken, subject_token_type: tokenType });

async function refused(subjectToken: string, detail: string, tokenType?: string) {
  const reply = await exchange(subjectToken, tokenType);
  expect(reply.status, reply.text).toBe(401);
  expect(isFastApiError(reply.body)).toBe(true);
  expect(reply.body.detail).toBe(detail);
  expect(reply.body.access_token).toBeUndefined();
}

const subject = () => `student-${randomUUID().slice(0, 8)}`;

describeServer('token exchange', () => {
  it("signs a portal's student in: a session that works, and a refresh token that renews it", async () => {
    const sub = subject();
    const reply = await exchange(
      await rsa.assertion(sub, { claims: { name: 'Noor Haddad', email: 'noor@school.example' } }),
    );
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({
      token_type: 'bearer',
      user: { display_name: 'Noor Haddad' },
    });
    // The portal's address is not Ayah's: never the account's email (one address, two portals).
    expect(reply.body.user.email).toBe('');
    expect(reply.body.user.last_login).not.toBeNull();
    const me = await h.get('/api/v1/auth/me', { token: reply.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(reply.body.user.id);
    const renewed = await h.post('/api/v1/auth/refresh', {
      refresh_token: reply.body.refresh_token,
    });
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body.access_token).toEqual(expect.any(String));
  });

  it('finds the same student again by issuer + subject, and another subject is another student', async () => {
    const sub = subject();
    const first = await exchange(await rsa.assertion(sub));
    const again = await exchange(await rsa.assertion(sub, { claims: { name: 'Renamed' } }));
    const other = await exchange(await rsa.assertion(subject()));
    expect([first.status, again.status, other.status]).toEqual([200, 200, 200]);
    expect(again.body.user.id).toBe(first.body.user.id);
    // The name is taken at the first sign-in; the student may change it in Ayah afterwards.
    expect(again.body.user.display_name).toBe('Noor Student');
    expect(other.body.user.id).not.toBe(first.body.user.id);
  });

  it('the same email (and the same subject) from two issuers is two students', async () => {
    const sub = subject();
    const email = `${sub}@school.example`;
    const fromRsa = await exchange(await rsa.assertion(sub, { claims: { email } }));
    const fromEc = await exchange(await ec.assertion(sub, { claims: { email } }));
    expect([fromRsa.status, fromEc.status]).toEqual([200, 200]);
    expect(fromEc.body.user.id).not.toBe(fromRsa.body.user.id);
  });

  it('never links a student to an Ayah account of the same email', async () => {
    const ayah = await h.signedInUser();
    const reply = await exchange(await rsa.assertion(subject(), { claims: { email: ayah.email } }));
    expect(reply.status).toBe(200);
    expect(reply.body.user.id).not.toBe(ayah.user.id);
  });

  it('takes the issuer configured by its PEM public key (ES256)', async () => {
    const reply = await exchange(await ec.assertion(subject()));
    expect(reply.status, reply.text).toBe(200);
  });

  it('an assertion works once: a replay is 401, and of concurrent uses exactly one wins', async () => {
    const assertion = await rsa.assertion(subject());
    expect((await exchange(assertion)).status).toBe(200);
    await refused(assertion, PORTAL_MESSAGES.replayed);

    const raced = await rsa.assertion(subject());
    const replies = await Promise.all(Array.from({ length: 6 }, () => exchange(raced)));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
  });

  it("a student's concurrent first sign-ins make one student", async () => {
    const sub = subject();
    const assertions = await Promise.all(Array.from({ length: 4 }, () => rsa.assertion(sub)));
    const replies = await Promise.all(assertions.map((a) => exchange(a)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(replies.map((r) => r.body.user.id)).size).toBe(1);
  });

  it('refuses an issuer nobody trusts, another audience, and a signature by another key', async () => {
    await refused(await stranger.assertion(subject()), PORTAL_MESSAGES.unknownIssuer);
    await refused(
      await rsa.assertion(subject(), { claims: { aud: 'https://other.example' } }),
      PORTAL_MESSAGES.audience,
    );
    await refused(await rsa.assertion(subject(), { foreignKey: true }), PORTAL_MESSAGES.signature);
    // The stranger's assertion claiming a trusted issuer: the trusted issuer's keys do not verify it.
    await refused(
      await stranger.assertion(subject(), { claims: { iss: rsa.issuer } }),
      PORTAL_MESSAGES.signature,
    );
  });

  it('refuses HS256 and alg none, even naming a trusted issuer', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: rsa.issuer, aud: AUDIENCE, sub: subject(), jti: randomUUID() };
    const hs256 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode('a shared secret nobody should trust here'));
    await refused(hs256, PORTAL_MESSAGES.algorithm);
    await refused(unsignedJwt({ ...claims, iat: now, exp: now + 60 }), PORTAL_MESSAGES.algorithm);
    // The PEM-configured issuer takes its own key's algorithm only.
    await refused(
      await rsa.assertion(subject(), { claims: { iss: ec.issuer } }),
      PORTAL_MESSAGES.algorithm,
    );
  });

  it('refuses an expired assertion, one that lives too long, and one not valid yet', async () => {
    await refused(
      await rsa.assertion(subject(), { issuedAtOffset: -200, lifetime: 100 }),
      PORTAL_MESSAGES.expired,
    );
    await refused(await rsa.assertion(subject(), { lifetime: 10 * 60 }), PORTAL_MESSAGES.tooLong);
    await refused(
      await rsa.assertion(subject(), { issuedAtOffset: 600 }),
      PORTAL_MESSAGES.notYetValid,
    );
    await refused(
      await rsa.assertion(subject(), { claims: { nbf: Math.floor(Date.now() / 1000) + 120 } }),
      PORTAL_MESSAGES.notYetValid,
    );
  });

  it('refuses an assertion without sub, jti, iat or exp', async () => {
    await refused(await rsa.assertion(undefined), PORTAL_MESSAGES.missingClaim('sub'));
    await refused(
      await rsa.assertion(subject(), { claims: { jti: undefined } }),
      PORTAL_MESSAGES.missingClaim('jti'),
    );
    await refused(
      await rsa.assertion(subject(), { claims: { iat: undefined } }),
      PORTAL_MESSAGES.missingClaim('iat'),
    );
    await refused(
      await rsa.assertion(subject(), { claims: { exp: undefined } }),
      PORTAL_MESSAGES.missingClaim('exp'),
    );
  });

  it('refuses malformed tokens and another subject_token_type', async () => {
    await refused('not-a-jwt', PORTAL_MESSAGES.malformed);
    await refused('a.b.c', PORTAL_MESSAGES.malformed);
    await refused(
      await rsa.assertion(subject()),
      PORTAL_MESSAGES.tokenType,
      'urn:ietf:params:oauth:token-type:access_token',
    );
    const missing = await h.post(EXCHANGE, { subject_token_type: JWT_TOKEN_TYPE });
    expect(missing.status).toBe(422);
    expect(isFastApiError(missing.body)).toBe(true);
  });

  it('fetches the JWKS once and keeps it (not once per sign-in)', async () => {
    const before = rsa.jwksRequests;
    for (let i = 0; i < 3; i++)
      expect((await exchange(await rsa.assertion(subject()))).status).toBe(200);
    expect(rsa.jwksRequests - before).toBe(0);
  });

  it("a portal's student's export names the portal and who it says the student is", async () => {
    const sub = subject();
    const signedIn = await exchange(
      await rsa.assertion(sub, { claims: { name: 'Lina Export', email: 'lina@school.example' } }),
    );
    const exported = await h.get('/api/v1/auth/export', { token: signedIn.body.access_token });
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.portal_identities).toEqual([
      {
        issuer: rsa.issuer,
        subject: sub,
        email: 'lina@school.example',
        created_at: expect.any(String),
      },
    ]);
  });

  it("a portal's student deletes their account by typing their display name; the identity goes too", async () => {
    const sub = subject();
    const signedIn = await exchange(await rsa.assertion(sub, { claims: { name: 'Sami Leaving' } }));
    const token = signedIn.body.access_token;
    const wrong = await h.request('DELETE', '/api/v1/auth/account', { confirm: sub }, { token });
    expect(wrong.status).toBe(400);
    const deleted = await h.request(
      'DELETE',
      '/api/v1/auth/account',
      { confirm: 'Sami Leaving' },
      { token },
    );
    expect(deleted.status, deleted.text).toBe(200);
    // The same portal student signing in again is a new, empty account.
    const again = await exchange(await rsa.assertion(sub));
    expect(again.status).toBe(200);
    expect(again.body.user.id).not.toBe(signedIn.body.user.id);
  });

  it('is in the OpenAPI document as a public operation', async () => {
    const doc = (await h.get('/api/v1/openapi.json')).body;
    const operation = doc.paths['/api/v1/auth/token-exchange'].post;
    expect(operation.operationId).toBe('postAuthTokenExchange');
    expect(operation.security).toEqual([]);
  });
});
