/**
 * Google sign-in over real HTTP, against a local OpenID provider that speaks the protocol (fake-oidc.ts):
 * state and PKCE, the ID token's signature, issuer, audience and expiry, and linking by `sub`.
 */
import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { GOOGLE_MESSAGES } from '../../../server/auth/google/service';
import { SIGN_IN_CODE_MESSAGES } from '../../../server/auth/sign-in-code/service';
import type { FakeUser, Spoil } from '../fake-oidc';
import { FakeOidcProvider } from '../fake-oidc';
import { describeServer, STRONG_PASSWORD, uniqueEmail, useTestServer } from '../harness';

const provider = new FakeOidcProvider();
beforeAll(() => provider.start());
afterAll(() => provider.close());
const h = useTestServer({ env: () => provider.env() });
const plain = useTestServer();

const AUTH = '/api/v1/auth';
const CALLBACK_PARAMS = [
  'access_token',
  'token_type',
  'user_id',
  'user_name',
  'user_email',
  'user_avatar',
  'refresh_token',
];

function googler(overrides: Partial<FakeUser> = {}): FakeUser {
  return {
    sub: `1${randomUUID().replace(/\D/g, '').slice(0, 20)}`,
    email: uniqueEmail('googler'),
    email_verified: true,
    name: 'Gia Google',
    picture: 'https://lh3.googleusercontent.example/a/photo.png',
    ...overrides,
  };
}

const manual = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { redirect: 'manual', headers });

/** The browser's state cookie of each sign-in started, by its state (one browser per sign-in). */
const cookieOf = new Map<string, string>();
/** The one-time value each browser kept in sessionStorage when it started, by state. */
const clientStateOf = new Map<string, string>();

/** GET /google/login: the provider's authorize URL it redirects to (its cookie is kept by state). */
async function startLogin(): Promise<URL> {
  const clientState = randomUUID() + randomUUID();
  const reply = await manual(`${h.url}${AUTH}/google/login?client_state=${clientState}`);
  expect(reply.status).toBe(302);
  const url = new URL(reply.headers.get('location')!);
  const cookie = reply.headers.get('set-cookie')!;
  expect(cookie).toMatch(/^ayah_google_state=[^;]+;/);
  cookieOf.set(url.searchParams.get('state')!, cookie.split(';')[0]!);
  clientStateOf.set(url.searchParams.get('state')!, clientState);
  return url;
}

/** The provider's consent: where it sends the browser back, with a code and the state. */
async function consent(authorizeUrl: URL, user: FakeUser, spoil?: Spoil) {
  provider.next = { user, spoil };
  const reply = await manual(authorizeUrl.toString());
  expect(reply.status).toBe(302);
  const back = new URL(reply.headers.get('location')!);
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
}

/**
 * GET /google/callback (as the browser would, with the cookie of the browser that started this
 * state unless `cookie` says otherwise): where the server sends the browser, `?code=…` or
 * `?error=…`.
 */
async function redirectOf(params: Record<string, string>, cookie?: string | null) {
  const sent = cookie === undefined ? cookieOf.get(params.state ?? '') : cookie;
  const reply = await manual(
    `${h.url}${AUTH}/google/callback?${new URLSearchParams(params)}`,
    sent ? { cookie: sent } : {},
  );
  expect(reply.status).toBe(302);
  expect(reply.headers.get('referrer-policy')).toBe('no-referrer');
  expect(reply.headers.get('cache-control')).toBe('no-store');
  const location = new URL(reply.headers.get('location')!);
  expect(location.origin + location.pathname).toBe('http://app.test/oauth-callback');
  return location.searchParams;
}

/** POST /sign-in-code, as the callback page does. */
const redeem = (code: string, state: string) => h.post(`${AUTH}/sign-in-code`, { code, state });

/**
 * The callback, then (for a code) the page's exchange with the one-time value of the browser that
 * started the sign-in: the outcome as the spec's parameters (or `error`).
 */
async function callback(params: Record<string, string>, cookie?: string | null) {
  const back = await redirectOf(params, cookie);
  if (!back.has('code')) return back;
  // Never a token in the URL: the code alone.
  expect([...back.keys()]).toEqual(['code']);
  const reply = await redeem(back.get('code')!, clientStateOf.get(params.state ?? '')!);
  expect(reply.status).toBe(200);
  const { access_token, token_type, refresh_token, user } = reply.body;
  return new URLSearchParams({
    access_token,
    token_type,
    user_id: user.id,
    user_name: user.display_name,
    user_email: user.email,
    user_avatar: user.profile.avatar_url ?? '',
    refresh_token,
  });
}

async function signInWithGoogle(user: FakeUser, spoil?: Spoil) {
  return callback(await consent(await startLogin(), user, spoil));
}

describeServer('Google sign-in', () => {
  it('redirects to the provider with state, PKCE (S256) and our redirect URI', async () => {
    expect((await manual(`${h.url}${AUTH}/google/login`)).status).toBe(422);
    const reply = await manual(`${h.url}${AUTH}/google/login?client_state=${'s'.repeat(32)}`);
    expect(reply.status).toBe(302);
    expect(reply.headers.get('referrer-policy')).toBe('no-referrer');
    const url = new URL(reply.headers.get('location')!);
    expect(url.origin + url.pathname).toBe(`${provider.issuer}/authorize`);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe(provider.clientId);
    expect(q.get('redirect_uri')).toBe(`http://app.test${AUTH}/google/callback`);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('scope')!.split(' ')).toEqual(['openid', 'email', 'profile']);
    expect(q.get('state')!.length).toBeGreaterThanOrEqual(32);
    // A fresh state every time.
    expect((await startLogin()).searchParams.get('state')).not.toBe(q.get('state'));
  });

  it('creates the account of a new Google user; its one-time code gives the spec’s parameters', async () => {
    const user = googler();
    const params = await signInWithGoogle(user);
    expect([...params.keys()]).toEqual(CALLBACK_PARAMS);
    expect(params.get('token_type')).toBe('bearer');
    expect(params.get('user_name')).toBe('Gia Google');
    expect(params.get('user_email')).toBe(user.email);
    expect(params.get('user_avatar')).toBe(user.picture);
    const me = await h.get(`${AUTH}/me`, { token: params.get('access_token')! });
    expect(me.status).toBe(200);
    // The refresh token renews the session (an access token alone cannot).
    const renewed = await h.post(`${AUTH}/refresh`, { refresh_token: params.get('refresh_token') });
    expect(renewed.status).toBe(200);
    expect(me.body.user).toMatchObject({
      id: params.get('user_id'),
      email: user.email,
      display_name: 'Gia Google',
      is_google: true,
      wallet_address: null,
      profile: { avatar_url: user.picture },
    });
    expect(me.body.user.last_login).not.toBeNull();
    // No password: it cannot be changed, and a reset mail is never sent.
    const change = await h.post(
      `${AUTH}/change-password`,
      { current_password: 'whatever', new_password: STRONG_PASSWORD },
      { token: params.get('access_token')! },
    );
    expect(change.status).toBe(403);
    expect(change.body).toEqual({
      detail: 'Password change is not available for Google or wallet accounts',
    });
    expect((await h.post(`${AUTH}/password-reset`, { email: user.email })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.mailsTo(user.email!)).toEqual([]);
  });

  it('links by Google’s subject id: the same sub is the same account, whatever its email now', async () => {
    const user = googler();
    const first = await signInWithGoogle(user);
    const again = await signInWithGoogle({ ...user, email: uniqueEmail('renamed') });
    expect(again.get('user_id')).toBe(first.get('user_id'));
    expect(again.get('access_token')).not.toBe(first.get('access_token'));
  });

  it('links an email account only when both Google and the account have verified the address', async () => {
    const local = await h.signedInUser();
    const sub = googler().sub;
    const linked = await signInWithGoogle(googler({ sub, email: local.email.toUpperCase() }));
    expect(linked.get('user_id')).toBe(local.user.id);
    // The password still works, and the next Google sign-in finds the account by sub.
    expect(
      (await h.post(`${AUTH}/login`, { email: local.email, password: local.password })).status,
    ).toBe(200);
    const bySub = await signInWithGoogle(googler({ sub, email: uniqueEmail() }));
    expect(bySub.get('user_id')).toBe(local.user.id);
    // Another Google account claiming the same address is not let in.
    const other = await signInWithGoogle(googler({ email: local.email }));
    expect(Object.fromEntries(other)).toEqual({ error: GOOGLE_MESSAGES.emailInUse });

    // An account whose owner never verified the address is not taken over through Google.
    const { email } = await h.register();
    const unverified = await signInWithGoogle(googler({ email }));
    expect(Object.fromEntries(unverified)).toEqual({ error: GOOGLE_MESSAGES.emailInUse });
    // Nor when Google does not vouch for the address.
    const verified = await h.signedInUser();
    const unvouched = await signInWithGoogle(
      googler({ email: verified.email, email_verified: false }),
    );
    expect(Object.fromEntries(unvouched)).toEqual({ error: GOOGLE_MESSAGES.emailInUse });
    // A new account needs a verified Google address too.
    const fresh = await signInWithGoogle(googler({ email_verified: false }));
    expect(Object.fromEntries(fresh)).toEqual({ error: GOOGLE_MESSAGES.unverifiedEmail });
  });

  it('uses a state once: a replayed or unknown state is refused', async () => {
    const answer = await consent(await startLogin(), googler());
    expect((await callback(answer)).get('access_token')).toBeTruthy();
    expect(Object.fromEntries(await callback(answer))).toEqual({ error: GOOGLE_MESSAGES.badState });
    const forged = await callback({ code: answer.code, state: 'made-up-state' });
    expect(Object.fromEntries(forged)).toEqual({ error: GOOGLE_MESSAGES.badState });
    expect(Object.fromEntries(await callback({ code: answer.code }))).toEqual({
      error: GOOGLE_MESSAGES.incomplete,
    });
  });

  it('binds the state to the browser: an HttpOnly, SameSite=Lax cookie the callback must bring', async () => {
    const reply = await manual(`${h.url}${AUTH}/google/login?client_state=${'c'.repeat(32)}`);
    const state = new URL(reply.headers.get('location')!).searchParams.get('state')!;
    const cookie = reply.headers.get('set-cookie')!;
    expect(cookie).toContain(`ayah_google_state=${state}`);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\/api\/v1\/auth\/google/);
    expect(cookie).toMatch(/; Max-Age=600/);

    // Login CSRF: the attacker starts a sign-in, consents as themself, and sends the victim the
    // callback URL. The victim's browser has no cookie, or its own sign-in's: refused either way.
    const attacker = googler();
    const answer = await consent(await startLogin(), attacker);
    expect(Object.fromEntries(await callback(answer, null))).toEqual({
      error: GOOGLE_MESSAGES.badState,
    });
    const victimCookie = cookieOf.get((await startLogin()).searchParams.get('state')!)!;
    expect(Object.fromEntries(await callback(answer, victimCookie))).toEqual({
      error: GOOGLE_MESSAGES.badState,
    });
    // A refusal leaves the state alone: the browser that started it still finishes, once.
    const done = await callback(answer);
    expect(done.get('user_email')).toBe(attacker.email);
    // The callback clears the cookie.
    const again = await manual(`${h.url}${AUTH}/google/callback?${new URLSearchParams(answer)}`, {
      cookie: cookieOf.get(answer.state)!,
    });
    expect(again.headers.get('set-cookie')).toMatch(/^ayah_google_state=;.*Max-Age=0/);
  });

  it('hands over a one-time code, never a token, bound to the browser that started the sign-in', async () => {
    // The attacker signs in as themself and stops at the redirect: its code, sent to a victim in a
    // link, is refused in the victim's browser (no one-time value, or its own), and is not used up.
    const attacker = googler();
    const answer = await consent(await startLogin(), attacker);
    const back = await redirectOf(answer);
    expect([...back.keys()]).toEqual(['code']);
    const code = back.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const victimState = clientStateOf.get((await startLogin()).searchParams.get('state')!)!;
    for (const state of [victimState, 'x'.repeat(32)]) {
      const refused = await redeem(code, state);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ detail: SIGN_IN_CODE_MESSAGES.invalid });
    }
    // The browser that started it exchanges it, once.
    const mine = await redeem(code, clientStateOf.get(answer.state)!);
    expect(mine.status).toBe(200);
    expect(mine.body.user.email).toBe(attacker.email);
    expect(mine.body.refresh_token).toEqual(expect.any(String));
    expect((await redeem(code, clientStateOf.get(answer.state)!)).status).toBe(400);
    // Tokens in the app's URL are nothing the server ever writes; a made-up code is refused.
    expect((await redeem('made-up-code', victimState)).status).toBe(400);
    expect((await h.post(`${AUTH}/sign-in-code`, { code })).status).toBe(422);
  });

  it('lets a sign-in code expire after a minute', async () => {
    const answer = await consent(await startLogin(), googler());
    const code = (await redirectOf(answer)).get('code')!;
    h.advanceClock(61_000);
    try {
      expect((await redeem(code, clientStateOf.get(answer.state)!)).status).toBe(400);
    } finally {
      h.resetClock();
    }
  });

  it('lets a state expire after 10 minutes', async () => {
    const url = await startLogin();
    h.advanceClock(10 * 60_000 + 1000);
    try {
      const params = await callback(await consent(url, googler()));
      expect(Object.fromEntries(params)).toEqual({ error: GOOGLE_MESSAGES.badState });
    } finally {
      h.resetClock();
    }
  });

  it('refuses a code injected into another sign-in (the PKCE verifier does not match)', async () => {
    const victim = await consent(await startLogin(), googler());
    const attackerState = (await startLogin()).searchParams.get('state')!;
    const params = await callback({ code: victim.code, state: attackerState });
    expect(Object.fromEntries(params)).toEqual({ error: GOOGLE_MESSAGES.notConfirmed });
    expect(provider.tokenRequests.at(-1)).toEqual({ status: 400, error: 'invalid_grant' });
    // The victim's own state still finishes, but the code is spent at the provider now.
    expect(Object.fromEntries(await callback(victim))).toEqual({
      error: GOOGLE_MESSAGES.notConfirmed,
    });
  });

  it('refuses ID tokens for another audience, from another issuer, badly signed or expired', async () => {
    const spoils: Spoil[] = [
      { audience: 'someone-else.apps.example' },
      { issuer: 'https://accounts.evil.example' },
      { foreignKey: true },
      { expiresIn: -60 },
    ];
    for (const spoil of spoils) {
      const params = await signInWithGoogle(googler(), spoil);
      expect(Object.fromEntries(params), JSON.stringify(spoil)).toEqual({
        error: GOOGLE_MESSAGES.badIdToken,
      });
    }
    const none = await signInWithGoogle(googler(), { noIdToken: true });
    expect(Object.fromEntries(none)).toEqual({ error: GOOGLE_MESSAGES.notConfirmed });
  });

  it('passes a refusal at the provider on to the app', async () => {
    const state = (await startLogin()).searchParams.get('state')!;
    const params = await callback({ error: 'access_denied', state });
    expect(Object.fromEntries(params)).toEqual({ error: GOOGLE_MESSAGES.cancelled });
  });

  it('answers 503 {detail} when Google is not configured', async () => {
    for (const path of [
      `/google/login?client_state=${'c'.repeat(32)}`,
      '/google/callback?code=a&state=b',
    ]) {
      const reply = await plain.get(`${AUTH}${path}`);
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({ detail: GOOGLE_MESSAGES.notConfigured });
      expect(reply.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });
});
