/** Bearer tokens, /me, /profile, onboarding, /refresh and /change-password over real HTTP. */
import { randomUUID } from 'node:crypto';

import { and, eq, isNull } from 'drizzle-orm';
import { SignJWT, UnsecuredJWT } from 'jose';
import { expect, it } from 'vitest';

import { REFRESH_GRACE_MS } from '../../../server/auth/sessions';
import { JWT_AUDIENCE, JWT_ISSUER, signAccessToken } from '../../../server/auth/tokens';
import { authSessions, pointsLedger, refreshTokens, users } from '../../../server/db/schema';
import { handSignedJwt, hs256 } from '../../support/jwt';
import { describeServer, uniqueEmail, useTestServer } from '../harness';

const h = useTestServer();
const AUTH = '/api/v1/auth';

async function forge(
  claims: Record<string, unknown>,
  options: { secret?: Uint8Array; alg?: string; iss?: string; aud?: string; exp?: number } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .setIssuer(options.iss ?? JWT_ISSUER)
    .setAudience(options.aud ?? JWT_AUDIENCE)
    .setIssuedAt(now - 60)
    .setExpirationTime(options.exp ?? now + 600)
    .sign(options.secret ?? h.config.jwtSecret);
}

function claimsOf(token: string): { sub: string; sid: string; tv: number } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
}

/**
 * A token for the same user and session as `token`, built and signed by hand with the server's
 * secret: the header given, the claims changed as given (undefined removes one), times from the
 * server's clock.
 */
function handMade(
  token: string,
  change: Record<string, unknown> = {},
  header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' },
): string {
  const { sub, sid, tv } = claimsOf(token);
  const at = Math.floor(h.now().getTime() / 1000);
  const claims: Record<string, unknown> = {
    ...{ sub, sid, tv, iss: JWT_ISSUER, aud: JWT_AUDIENCE, iat: at - 60, exp: at + 600 },
    jti: randomUUID(),
  };
  for (const [claim, value] of Object.entries(change)) {
    if (value === undefined) delete claims[claim];
    else claims[claim] = value;
  }
  return handSignedJwt(header, claims, h.config.jwtSecret);
}

async function meWith(token: string) {
  const reply = await h.get(`${AUTH}/me`, { token });
  return reply.status === 401 ? (reply.body as { detail: string }).detail : reply.status;
}

describeServer('bearer tokens', () => {
  it('GET /me answers {user} for a valid token', async () => {
    const user = await h.signedInUser();
    const me = await h.get(`${AUTH}/me`, { token: user.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user: user.user });
  });

  it('answers 401 {detail} without a token, or with another scheme', async () => {
    const none = await h.get(`${AUTH}/me`);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ detail: 'Not authenticated' });
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    const user = await h.signedInUser();
    const basic = await h.get(`${AUTH}/me`, {
      headers: { authorization: `Basic ${user.access_token}` },
    });
    expect(basic.status).toBe(401);
    const garbage = await h.get(`${AUTH}/me`, { token: 'not.a.jwt' });
    expect(garbage.status).toBe(401);
    expect(garbage.body).toEqual({ detail: 'Could not validate credentials' });
  });

  it('refuses tampered tokens: another sub, a flipped signature, another key', async () => {
    const alice = await h.signedInUser();
    const bob = await h.signedInUser();
    const [header, payload, signature] = alice.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const asBob = Buffer.from(JSON.stringify({ ...claims, sub: bob.user.id })).toString(
      'base64url',
    );
    const flipped = signature!.slice(0, -2) + (signature!.endsWith('AA') ? 'BB' : 'AA');
    const otherKey = await forge(
      { sub: claims.sub, sid: claims.sid, tv: 0 },
      { secret: new Uint8Array(32).fill(7) },
    );
    for (const token of [
      `${header}.${asBob}.${signature}`,
      `${header}.${payload}.${flipped}`,
      otherKey,
    ]) {
      const reply = await h.get(`${AUTH}/me`, { token });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ detail: 'Could not validate credentials' });
    }
  });

  it('refuses alg:none and algorithms outside the allow-list', async () => {
    const user = await h.signedInUser();
    const claims = claimsOf(user.access_token);
    const unsecured = new UnsecuredJWT({ sid: claims.sid, tv: claims.tv })
      .setSubject(claims.sub)
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('10m')
      .encode();
    expect(unsecured.split('.')[2]).toBe('');
    const hs512 = await forge(
      { sub: claims.sub, sid: claims.sid, tv: claims.tv },
      { alg: 'HS512' },
    );
    // Signed by hand with HMAC-SHA-256 and the server's own secret: only the header is wrong.
    const lying = [
      handMade(user.access_token, {}, { alg: 'HS512', typ: 'JWT' }),
      handMade(user.access_token, {}, { alg: 'none', typ: 'JWT' }),
      handMade(user.access_token, {}, { typ: 'JWT' }),
      handMade(user.access_token, {}, { alg: 'HS256', crit: ['exp'], exp: 1 }),
      handMade(user.access_token, {}, { alg: 'HS256', crit: ['b64'], b64: true }),
      handMade(user.access_token, {}, { alg: 'HS256', crit: ['b64'], b64: false }),
    ];
    for (const token of [unsecured, `${unsecured}x`, hs512, ...lying]) {
      const reply = await h.get(`${AUTH}/me`, { token });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ detail: 'Could not validate credentials' });
    }
    // The same claims, properly signed, pass: the refusals above are about the algorithm.
    const good = await forge({ sub: claims.sub, sid: claims.sid, tv: claims.tv });
    expect((await h.get(`${AUTH}/me`, { token: good })).status).toBe(200);
    expect(await meWith(handMade(user.access_token))).toBe(200);
  });

  it('refuses a malformed token: extra dots, padding, a payload that is not an object', async () => {
    const user = await h.signedInUser();
    // A payload whose base64url is not a multiple of 4 long, so that it can be padded.
    let good = handMade(user.access_token);
    for (let pad = 'x'; good.split('.')[1]!.length % 4 === 0; pad += 'x') {
      good = handMade(user.access_token, { pad });
    }
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const notObject = handSignedJwt({ alg: 'HS256' }, '["a","b"]', h.config.jwtSecret);
    const padded = `${payload}${'='.repeat(4 - (payload.length % 4))}`;
    const signedPadded = `${header}.${padded}.${hs256(`${header}.${padded}`, h.config.jwtSecret)}`;
    const malformed = [
      `${good}.`,
      `${good}.${signature}`,
      `${header}..${payload}.${signature}`,
      `${header}.${payload}`,
      `${good}=`,
      signedPadded,
      notObject,
    ];
    for (const token of malformed) {
      expect(await meWith(token), token).toBe('Could not validate credentials');
    }
    expect(await meWith(good)).toBe(200);
  });

  it('requires exp, iat and sub, and checks nbf and exp with a 5 s tolerance', async () => {
    const user = await h.signedInUser();
    h.freezeClock();
    try {
      const at = Math.floor(h.now().getTime() / 1000);
      const made = (change: Record<string, unknown>) => handMade(user.access_token, change);
      for (const claim of ['exp', 'iat', 'sub']) {
        expect(await meWith(made({ [claim]: undefined })), claim).toBe(
          'Could not validate credentials',
        );
      }
      expect(await meWith(made({ exp: String(at + 600) }))).toBe('Could not validate credentials');
      expect(await meWith(made({ nbf: at + 60 }))).toBe('Could not validate credentials');
      expect(await meWith(made({ nbf: at + 5 }))).toBe(200);
      expect(await meWith(made({ exp: at - 3 }))).toBe(200); // expired by less than the tolerance
      expect(await meWith(made({ exp: at - 5 }))).toBe('Token has expired');
      // Expired, but refused first for its issuer, as before.
      expect(await meWith(made({ exp: at - 60, iss: 'someone-else' }))).toBe(
        'Could not validate credentials',
      );
    } finally {
      h.resetClock();
    }
  });

  it('checks issuer and audience', async () => {
    const user = await h.signedInUser();
    const claims = claimsOf(user.access_token);
    for (const options of [{ iss: 'someone-else' }, { aud: 'another-api' }]) {
      const token = await forge({ sub: claims.sub, sid: claims.sid, tv: claims.tv }, options);
      expect((await h.get(`${AUTH}/me`, { token })).status).toBe(401);
    }
    // An audience list is ours when it holds ours (as jose had it).
    const ours = handMade(user.access_token, { aud: ['another-api', JWT_AUDIENCE] });
    expect(await meWith(ours)).toBe(200);
    const notOurs = handMade(user.access_token, { aud: ['another-api'] });
    expect(await meWith(notOurs)).toBe('Could not validate credentials');
  });

  it('expires access tokens after 30 minutes (401 "Token has expired")', async () => {
    const user = await h.signedInUser();
    const claims = claimsOf(user.access_token) as unknown as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(1800);
    const past = await forge(
      { sub: claimsOf(user.access_token).sub, sid: claimsOf(user.access_token).sid, tv: 0 },
      { exp: Math.floor(Date.now() / 1000) - 60 },
    );
    const reply = await h.get(`${AUTH}/me`, { token: past });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ detail: 'Token has expired' });
    h.advanceClock(31 * 60_000);
    try {
      expect((await h.get(`${AUTH}/me`, { token: user.access_token })).status).toBe(401);
    } finally {
      h.resetClock();
    }
    expect((await h.get(`${AUTH}/me`, { token: user.access_token })).status).toBe(200);
  });
});

describeServer('PUT /profile', () => {
  it('updates display name and bio (trimmed) and answers {user}', async () => {
    const user = await h.signedInUser();
    const reply = await h.put(
      `${AUTH}/profile`,
      { display_name: '  Grace  ', bio: ' Loves algebra ' },
      { token: user.access_token },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.user).toMatchObject({
      display_name: 'Grace',
      bio: 'Loves algebra',
      profile: { display_name: 'Grace', bio: 'Loves algebra', avatar_url: null },
    });
    const bioOnly = await h.put(`${AUTH}/profile`, { bio: '' }, { token: user.access_token });
    expect(bioOnly.body.user).toMatchObject({ display_name: 'Grace', bio: '' });
    const nothing = await h.put(`${AUTH}/profile`, {}, { token: user.access_token });
    expect(nothing.status).toBe(200);
    expect(nothing.body.user.display_name).toBe('Grace');
  });

  it('validates (422): empty name, long bio, wrong types, and the email cannot be changed', async () => {
    const user = await h.signedInUser();
    const cases: [unknown, (string | number)[]][] = [
      [{ display_name: '   ' }, ['body', 'display_name']],
      [{ bio: 'x'.repeat(501) }, ['body', 'bio']],
      [{ display_name: 42 }, ['body', 'display_name']],
      [{ email: 'new@example.com' }, ['body', 'email']],
    ];
    for (const [body, loc] of cases) {
      const reply = await h.put(`${AUTH}/profile`, body, { token: user.access_token });
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(reply.body.detail[0].loc).toEqual(loc);
    }
  });

  it('needs a token (401)', async () => {
    expect((await h.put(`${AUTH}/profile`, { bio: 'x' })).status).toBe(401);
  });
});

describeServer('POST /onboarding/complete', () => {
  it('answers 200 {user} and awards the onboarding points once, however often it is called', async () => {
    const user = await h.signedInUser();
    const first = await h.post(`${AUTH}/onboarding/complete`, undefined, {
      token: user.access_token,
    });
    expect(first.status).toBe(200);
    expect(first.body.user.onboarding_completed).toBe(true);
    const again = await Promise.all(
      Array.from({ length: 4 }, () =>
        h.post(`${AUTH}/onboarding/complete`, undefined, { token: user.access_token }),
      ),
    );
    expect(again.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const rows = await h.database.db
      .select()
      .from(pointsLedger)
      .where(eq(pointsLedger.userId, user.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 50, type: 'earned', awardKey: 'onboarding' });
    const me = await h.get(`${AUTH}/me`, { token: user.access_token });
    expect(me.body.user.onboarding_completed).toBe(true);
  });

  it('keeps the subjects picked as interests, in subject order, and refuses unknown ones (422)', async () => {
    const user = await h.signedInUser();
    const done = await h.post(
      `${AUTH}/onboarding/complete`,
      { interests: ['science', 'math', 'science'] },
      { token: user.access_token },
    );
    expect(done.status).toBe(200);
    expect(done.body.user.interests).toEqual(['math', 'science']);
    const wrong = await h.post(
      `${AUTH}/onboarding/complete`,
      { interests: ['cooking'] },
      { token: user.access_token },
    );
    expect(wrong.status).toBe(422);
    const changed = await h.put(
      `${AUTH}/profile`,
      { interests: ['history'] },
      { token: user.access_token },
    );
    expect(changed.body.user).toMatchObject({ interests: ['history'] });
    const untouched = await h.put(`${AUTH}/profile`, { bio: 'Hi' }, { token: user.access_token });
    expect(untouched.body.user.interests).toEqual(['history']);
    const fresh = await h.signedInUser();
    expect((await h.get(`${AUTH}/me`, { token: fresh.access_token })).body.user.interests).toEqual(
      [],
    );
  });

  it('needs a token (401)', async () => {
    expect((await h.post(`${AUTH}/onboarding/complete`)).status).toBe(401);
  });
});

describeServer('POST /refresh', () => {
  it('rotates: a refresh token buys a new access token and a new refresh token', async () => {
    const user = await h.signedInUser();
    const reply = await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ token_type: 'bearer', expires_in: 1800 });
    expect(reply.body.refresh_token).not.toBe(user.refresh_token);
    expect(claimsOf(reply.body.access_token).sid).toBe(claimsOf(user.access_token).sid);
    expect((await h.get(`${AUTH}/me`, { token: reply.body.access_token })).status).toBe(200);
    const next = await h.post(`${AUTH}/refresh`, { refresh_token: reply.body.refresh_token });
    expect(next.status).toBe(200);
  });

  it('signs the whole chain out when a used refresh token comes back after the grace', async () => {
    const user = await h.signedInUser();
    const other = await h.post(`${AUTH}/login`, { email: user.email, password: user.password });
    const rotated = await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token });
    expect(rotated.status).toBe(200);
    h.advanceClock(REFRESH_GRACE_MS + 1000);
    let replay;
    try {
      replay = await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token });
    } finally {
      h.resetClock();
    }
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({
      detail: 'Refresh token already used; the session has been signed out',
    });
    // Every token of that session is dead: the thief's and the user's alike.
    expect(
      (await h.post(`${AUTH}/refresh`, { refresh_token: rotated.body.refresh_token })).status,
    ).toBe(401);
    expect((await h.get(`${AUTH}/me`, { token: rotated.body.access_token })).status).toBe(401);
    expect((await h.get(`${AUTH}/me`, { token: user.access_token })).status).toBe(401);
    // Another sign-in of the same user is untouched.
    expect((await h.get(`${AUTH}/me`, { token: other.body.access_token })).status).toBe(200);
    expect(
      (await h.post(`${AUTH}/refresh`, { refresh_token: other.body.refresh_token })).status,
    ).toBe(200);
  });

  it('refuses an access token alone (401): only a refresh token renews a session', async () => {
    const user = await h.signedInUser();
    const bare = await h.post(`${AUTH}/refresh`, undefined, { token: user.access_token });
    expect(bare.status).toBe(401);
    expect(bare.body).toEqual({ detail: 'Not authenticated' });
    const emptyJson = await h.post(`${AUTH}/refresh`, undefined, {
      token: user.access_token,
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(emptyJson.status).toBe(401);
    expect((await h.post(`${AUTH}/refresh`, {}, { token: user.access_token })).status).toBe(401);
    // The bearer token does not stand in for a refresh token either.
    const asRefresh = await h.post(`${AUTH}/refresh`, { refresh_token: user.access_token });
    expect(asRefresh.status).toBe(401);
    // The refresh token still works, and keeps working after its access token has expired.
    h.advanceClock(45 * 60_000);
    try {
      expect((await h.get(`${AUTH}/me`, { token: user.access_token })).status).toBe(401);
      const renewed = await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token });
      expect(renewed.status).toBe(200);
      expect((await h.get(`${AUTH}/me`, { token: renewed.body.access_token })).status).toBe(200);
    } finally {
      h.resetClock();
    }
  });

  it('refuses unknown refresh tokens, no credentials at all, and ended sessions (401)', async () => {
    expect((await h.post(`${AUTH}/refresh`, { refresh_token: 'made-up' })).status).toBe(401);
    const bare = await h.post(`${AUTH}/refresh`);
    expect(bare.status).toBe(401);
    expect(bare.body).toEqual({ detail: 'Not authenticated' });
    const user = await h.signedInUser();
    h.advanceClock(31 * 24 * 3600_000);
    try {
      expect((await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token })).status).toBe(
        401,
      );
    } finally {
      h.resetClock();
    }
    const bad = await h.post(`${AUTH}/refresh`, { refresh_token: 7, extra: true });
    expect(bad.status).toBe(422);
  });

  it('gives tabs renewing at once the same successor and keeps the one session (issue 22 #4)', async () => {
    const user = await h.signedInUser();
    const sid = claimsOf(user.access_token).sid;
    const replies = await Promise.all(
      Array.from({ length: 5 }, () =>
        h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const successors = new Set(replies.map((r) => r.body.refresh_token));
    expect(successors.size).toBe(1);
    const [successor] = [...successors];
    expect(successor).not.toBe(user.refresh_token);
    for (const reply of replies) {
      expect(claimsOf(reply.body.access_token).sid).toBe(sid);
      expect((await h.get(`${AUTH}/me`, { token: reply.body.access_token })).status).toBe(200);
    }
    // One live session, one live refresh token: the successor renews once more as usual.
    const live = await h.database.db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.sessionId, sid), isNull(refreshTokens.usedAt)));
    expect(live).toHaveLength(1);
    const next = await h.post(`${AUTH}/refresh`, { refresh_token: successor });
    expect(next.status).toBe(200);
    expect((await h.get(`${AUTH}/me`, { token: next.body.access_token })).status).toBe(200);
  });

  it('grants the grace only to the immediately previous token', async () => {
    const user = await h.signedInUser();
    const first = await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token });
    const second = await h.post(`${AUTH}/refresh`, { refresh_token: first.body.refresh_token });
    expect(second.status).toBe(200);
    // The token two back, within seconds: its successor was used, so this is a copied token.
    const stale = await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token });
    expect(stale.status).toBe(401);
    expect(stale.body).toEqual({
      detail: 'Refresh token already used; the session has been signed out',
    });
    expect((await h.get(`${AUTH}/me`, { token: second.body.access_token })).status).toBe(401);
    expect(
      (await h.post(`${AUTH}/refresh`, { refresh_token: second.body.refresh_token })).status,
    ).toBe(401);
  });

  it('still revokes a second tab whose renewal comes after the grace', async () => {
    const user = await h.signedInUser();
    h.freezeClock();
    try {
      const first = await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token });
      expect(first.status).toBe(200);
      h.advanceClock(REFRESH_GRACE_MS);
      const inGrace = await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token });
      expect(inGrace.status).toBe(200);
      expect(inGrace.body.refresh_token).toBe(first.body.refresh_token);
      h.advanceClock(1);
      const late = await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token });
      expect(late.status).toBe(401);
      expect((await h.get(`${AUTH}/me`, { token: first.body.access_token })).status).toBe(401);
    } finally {
      h.resetClock();
    }
  });
});

describeServer('POST /logout', () => {
  it('revokes the session and its refresh chain; other sessions stay', async () => {
    const user = await h.signedInUser();
    const other = await h.post(`${AUTH}/login`, { email: user.email, password: user.password });
    const rotated = await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token });
    expect(rotated.status).toBe(200);
    const out = await h.post(`${AUTH}/logout`, undefined, { token: rotated.body.access_token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ message: 'Signed out' });
    for (const token of [user.access_token, rotated.body.access_token]) {
      expect((await h.get(`${AUTH}/me`, { token })).status).toBe(401);
    }
    for (const refresh_token of [user.refresh_token, rotated.body.refresh_token]) {
      expect((await h.post(`${AUTH}/refresh`, { refresh_token })).status).toBe(401);
    }
    expect((await h.get(`${AUTH}/me`, { token: other.body.access_token })).status).toBe(200);
    expect(
      (await h.post(`${AUTH}/refresh`, { refresh_token: other.body.refresh_token })).status,
    ).toBe(200);
    // A second logout with the dead token is a plain 401.
    expect(
      (await h.post(`${AUTH}/logout`, undefined, { token: rotated.body.access_token })).status,
    ).toBe(401);
  });

  it('takes the refresh token instead when the access token has expired', async () => {
    const user = await h.signedInUser();
    h.advanceClock(45 * 60_000);
    try {
      const out = await h.post(`${AUTH}/logout`, { refresh_token: user.refresh_token });
      expect(out.status).toBe(200);
      expect((await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token })).status).toBe(
        401,
      );
    } finally {
      h.resetClock();
    }
  });

  it('answers 401 without credentials or with an unknown refresh token', async () => {
    expect((await h.post(`${AUTH}/logout`)).status).toBe(401);
    expect((await h.post(`${AUTH}/logout`, { refresh_token: 'made-up' })).status).toBe(401);
    expect((await h.post(`${AUTH}/logout`, { refresh_token: 7 })).status).toBe(422);
  });
});

describeServer('POST /change-password', () => {
  const NEW = 'Green-Teapot-77';

  it('changes the password, keeps this session and signs out every other one', async () => {
    const user = await h.signedInUser();
    const other = await h.post(`${AUTH}/login`, { email: user.email, password: user.password });
    const reply = await h.post(
      `${AUTH}/change-password`,
      { current_password: user.password, new_password: NEW },
      { token: user.access_token },
    );
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['message']);
    expect((await h.get(`${AUTH}/me`, { token: user.access_token })).status).toBe(200);
    expect((await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token })).status).toBe(
      200,
    );
    expect((await h.get(`${AUTH}/me`, { token: other.body.access_token })).status).toBe(401);
    expect(
      (await h.post(`${AUTH}/refresh`, { refresh_token: other.body.refresh_token })).status,
    ).toBe(401);
    expect(
      (await h.post(`${AUTH}/login`, { email: user.email, password: user.password })).status,
    ).toBe(401);
    expect((await h.post(`${AUTH}/login`, { email: user.email, password: NEW })).status).toBe(200);
  });

  it('answers 400 "Current password is incorrect"', async () => {
    const user = await h.signedInUser();
    const reply = await h.post(
      `${AUTH}/change-password`,
      { current_password: 'Wrong-Current-1', new_password: NEW },
      { token: user.access_token },
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ detail: 'Current password is incorrect' });
  });

  it('refuses the same password (400) and weak or common ones (422)', async () => {
    const user = await h.signedInUser();
    const same = await h.post(
      `${AUTH}/change-password`,
      { current_password: user.password, new_password: user.password },
      { token: user.access_token },
    );
    expect(same.status).toBe(400);
    expect(same.body).toEqual({ detail: 'New password must be different from current password' });
    for (const weak of ['short', 'Password1!']) {
      const reply = await h.post(
        `${AUTH}/change-password`,
        { current_password: user.password, new_password: weak },
        { token: user.access_token },
      );
      expect(reply.status).toBe(422);
      expect(reply.body.detail[0].loc).toEqual(['body', 'new_password']);
    }
    const missing = await h.post(`${AUTH}/change-password`, {}, { token: user.access_token });
    expect(missing.status).toBe(422);
  });

  it('is refused to Google and wallet accounts (403) and to strangers (401)', async () => {
    const at = new Date();
    const [google] = await h.database.db
      .insert(users)
      .values({
        email: uniqueEmail('google'),
        displayName: 'G User',
        isGoogle: true,
        googleSub: randomUUID(),
        emailVerifiedAt: at,
        createdAt: at,
      })
      .returning();
    const [session] = await h.database.db
      .insert(authSessions)
      .values({ userId: google!.id, expiresAt: new Date(Date.now() + 3600_000) })
      .returning();
    const token = await signAccessToken(
      { sub: google!.id, sid: session!.id, tv: 0 },
      h.config.jwtSecret,
      new Date(),
      1800,
    );
    const reply = await h.post(
      `${AUTH}/change-password`,
      { current_password: 'Anything-1!', new_password: NEW },
      { token },
    );
    expect(reply.status).toBe(403);
    expect(typeof reply.body.detail).toBe('string');
    expect(
      (await h.post(`${AUTH}/change-password`, { current_password: 'a', new_password: NEW }))
        .status,
    ).toBe(401);
    // Such an account cannot sign in with a password either, and answers like a wrong password.
    const login = await h.post(`${AUTH}/login`, { email: google!.email, password: 'Anything-1!' });
    expect(login.status).toBe(401);
  });
});
