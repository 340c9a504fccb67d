/** Register, verify email, resend verification, login (JSON and form) over real HTTP. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { users } from '../../../server/db/schema';
import { describeServer, STRONG_PASSWORD, tokenOf, uniqueEmail, useTestServer } from '../harness';

const h = useTestServer();
const AUTH = '/api/v1/auth';
const REQUIREMENTS = 'Password does not meet requirements: ';

const USER_KEYS = [
  'bio',
  'created_at',
  'display_name',
  'email',
  'id',
  'interests',
  'is_google',
  'last_login',
  'onboarding_completed',
  'profile',
  'subscription_type',
  'tier',
  'wallet_address',
].sort();

describeServer('POST /register', () => {
  it('creates the user (201 {message, user}) with exactly the user object of API.md', async () => {
    const email = uniqueEmail();
    const { reply } = await h.register({ email, display_name: '  Ada Lovelace  ' });
    expect(reply.status).toBe(201);
    expect(typeof reply.body.message).toBe('string');
    const { user } = reply.body;
    expect(Object.keys(user).sort()).toEqual(USER_KEYS);
    expect(user).toMatchObject({
      email,
      display_name: 'Ada Lovelace',
      profile: { display_name: 'Ada Lovelace', bio: '', avatar_url: null },
      bio: '',
      is_google: false,
      wallet_address: null,
      last_login: null, // a new user: registering is not signing in
      onboarding_completed: false,
      subscription_type: 'free',
      tier: 'free',
    });
    expect(new Date(user.created_at).toISOString()).toBe(user.created_at);
  });

  it('stores an argon2id hash, never the password', async () => {
    const { email } = await h.register();
    const [row] = await h.database.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`);
    expect(row?.hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row?.hash).not.toContain(STRONG_PASSWORD);
  });

  it('sends a verification mail whose link is built from PUBLIC_URL, not the Host header', async () => {
    const email = uniqueEmail();
    await h.post(
      `${AUTH}/register`,
      {
        email,
        password: STRONG_PASSWORD,
        display_name: 'Ben',
        agreed_to_terms: true,
        agreed_to_privacy: true,
      },
      { headers: { 'x-forwarded-host': 'evil.example.com' } },
    );
    const mail = await h.mailTo(email);
    expect(mail.link).toMatch(/^http:\/\/app\.test\/verify-email\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain(mail.link);
    expect(mail.html).toContain(mail.link);
    expect(mail.text).toContain('Ayah');
    expect(mail.text).not.toMatch(/financ/i);
  });

  it('writes the mail as an .eml file in the outbox when no SMTP is configured', async () => {
    const { email } = await h.register();
    const mail = await h.mailTo(email);
    const outbox = path.join(h.dataDir, 'outbox');
    const files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    const decoded = files
      .map((f) => readFileSync(path.join(outbox, f), 'utf8'))
      .map((eml) => eml.replace(/=\r?\n/g, '').replace(/=3D/g, '='))
      .find((eml) => eml.includes(email));
    expect(decoded).toBeDefined();
    expect(decoded).toContain('Subject: Confirm your email for Ayah');
    expect(decoded).toContain(tokenOf(mail));
    const printed = h.logs.find(
      (l) => l.level === 'info' && String(l.args[0]).includes(mail.link!),
    );
    expect(printed).toBeDefined();
  });

  it('answers 409 for an email already used, whatever its case', async () => {
    const { email } = await h.register();
    for (const again of [email, email.toUpperCase(), `  ${email}  `]) {
      const { reply } = await h.register({ email: again });
      expect(reply.status).toBe(409);
      expect(reply.body).toEqual({ detail: 'An account with this email already exists' });
    }
  });

  it('refuses each unmet password rule with the spec text (422)', async () => {
    const cases: [string, string[]][] = [
      ['Ab1!', ['At least 8 characters']],
      ['ABCDEFG1!', ['At least one lowercase letter']],
      ['abcdefg1!', ['At least one uppercase letter']],
      ['Abcdefgh!', ['At least one number']],
      ['Abcdefgh1', ['At least one special character']],
      [
        '',
        [
          'At least 8 characters',
          'At least one lowercase letter',
          'At least one uppercase letter',
          'At least one number',
          'At least one special character',
        ],
      ],
    ];
    for (const [password, unmet] of cases) {
      const { reply } = await h.register({ password });
      expect(reply.status, password).toBe(422);
      expect(reply.body.detail).toEqual([
        { loc: ['body', 'password'], msg: REQUIREMENTS + unmet.join(', '), type: 'value_error' },
      ]);
    }
  });

  it('refuses common passwords even when they meet the five rules', async () => {
    for (const password of ['Password1!', 'P@ssw0rd', 'pASSWORD1!', 'Welcome@123', 'Qwerty123!']) {
      const { reply } = await h.register({ password });
      expect(reply.status, password).toBe(422);
      expect(reply.body.detail[0].loc).toEqual(['body', 'password']);
      expect(reply.body.detail[0].msg).toMatch(/too common/);
    }
  });

  it('accepts long passwords without truncating them, up to 256 characters', async () => {
    const long = `Aa1!${'x'.repeat(252)}`;
    const user = await h.signedInUser({ password: long });
    const truncated = await h.post(`${AUTH}/login`, {
      email: user.email,
      password: long.slice(0, 72),
    });
    expect(truncated.status).toBe(401);
    expect((await h.post(`${AUTH}/login`, { email: user.email, password: long })).status).toBe(200);
    const tooLong = await h.register({ password: `${long}y` });
    expect(tooLong.reply.status).toBe(422);
    expect(tooLong.reply.body.detail[0]).toMatchObject({
      loc: ['body', 'password'],
      type: 'string_too_long',
    });
  });

  it('validates every field, rejects unknown fields and wrong types (422 with loc)', async () => {
    const reply = await h.post(`${AUTH}/register`, {
      email: 'not-an-email',
      password: 12345678,
      display_name: '   ',
      agreed_to_terms: false,
      agreed_to_privacy: 'yes',
      is_admin: true,
    });
    expect(reply.status).toBe(422);
    expect(reply.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'email'], msg: 'Please enter a valid email address', type: 'value_error' },
        { loc: ['body', 'password'], msg: 'Input should be a valid string', type: 'string_type' },
        { loc: ['body', 'display_name'], msg: 'Name is required', type: 'string_too_short' },
        {
          loc: ['body', 'agreed_to_terms'],
          msg: 'You must accept the terms of service',
          type: 'literal_error',
        },
        {
          loc: ['body', 'agreed_to_privacy'],
          msg: 'You must accept the privacy policy',
          type: 'literal_error',
        },
        {
          loc: ['body', 'is_admin'],
          msg: 'Extra inputs are not permitted',
          type: 'extra_forbidden',
        },
      ]),
    );
    const missing = await h.post(`${AUTH}/register`, {});
    expect(missing.body.detail.map((d: { loc: string[] }) => d.loc[1]).sort()).toEqual([
      'agreed_to_privacy',
      'agreed_to_terms',
      'display_name',
      'email',
      'password',
    ]);
    expect(missing.body.detail.every((d: { type: string }) => d.type === 'missing')).toBe(true);
  });

  it('refuses NUL characters instead of failing in the database', async () => {
    const { reply } = await h.register({ display_name: 'Bad\u0000Name' });
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0].loc).toEqual(['body', 'display_name']);
  });
});

describeServer('POST /verify-email', () => {
  it('verifies, signs in and answers {access_token, token_type, user}', async () => {
    const { email } = await h.register();
    const token = tokenOf(await h.mailTo(email));
    const reply = await h.post(`${AUTH}/verify-email`, { token });
    expect(reply.status).toBe(200);
    expect(reply.body.token_type).toBe('bearer');
    expect(reply.body.access_token.split('.')).toHaveLength(3);
    expect(typeof reply.body.refresh_token).toBe('string');
    expect(reply.body.user.email).toBe(email);
    expect(reply.body.user.last_login).not.toBeNull();
    const me = await h.get(`${AUTH}/me`, { token: reply.body.access_token });
    expect(me.status).toBe(200);
  });

  it('is single-use: a replayed token signs no one in, and says the account is verified (409)', async () => {
    const { email } = await h.register();
    const token = tokenOf(await h.mailTo(email));
    expect((await h.post(`${AUTH}/verify-email`, { token })).status).toBe(200);
    const again = await h.post(`${AUTH}/verify-email`, { token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'This email is already verified. Please sign in.' });
    expect(again.body.access_token).toBeUndefined();
  });

  it('gives exactly one sign-in to five concurrent uses of one token', async () => {
    const { email } = await h.register();
    const token = tokenOf(await h.mailTo(email));
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => h.post(`${AUTH}/verify-email`, { token })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it('refuses unknown and expired tokens (400) and validates the body (422)', async () => {
    expect((await h.post(`${AUTH}/verify-email`, { token: 'made-up' })).status).toBe(400);
    const { email } = await h.register();
    const token = tokenOf(await h.mailTo(email));
    h.advanceClock(24 * 3600_000 + 1000);
    try {
      const expired = await h.post(`${AUTH}/verify-email`, { token });
      expect(expired.status).toBe(400);
    } finally {
      h.resetClock();
    }
    expect((await h.post(`${AUTH}/verify-email`, { token: 42 })).status).toBe(422);
    expect((await h.post(`${AUTH}/verify-email`, { token: '' })).status).toBe(422);
    expect((await h.post(`${AUTH}/verify-email`, { token, more: 1 })).status).toBe(422);
  });
});

describeServer('POST /resend-verification', () => {
  it('answers the same whether or not the address exists, and mails only a real unverified one', async () => {
    const { email } = await h.register();
    await h.mailTo(email);
    const real = await h.post(`${AUTH}/resend-verification`, { email });
    const ghost = await h.post(`${AUTH}/resend-verification`, { email: uniqueEmail('ghost') });
    expect(real.status).toBe(200);
    expect(ghost.status).toBe(200);
    expect(real.body).toEqual(ghost.body);
    expect(Object.keys(real.body)).toEqual(['message', 'retry_after']);
    await expect.poll(() => h.mailsTo(email).length).toBe(2);
    // Both links work until one is used.
    const [first, second] = h.mailsTo(email);
    expect(tokenOf(first!)).not.toBe(tokenOf(second!));
    expect((await h.post(`${AUTH}/verify-email`, { token: tokenOf(second!) })).status).toBe(200);
    // The older link was retired by the newer one, and the account is now verified.
    expect((await h.post(`${AUTH}/verify-email`, { token: tokenOf(first!) })).status).toBe(409);
  });

  it('does not mail a verified account again', async () => {
    const user = await h.signedInUser();
    const before = h.mailsTo(user.email).length;
    expect((await h.post(`${AUTH}/resend-verification`, { email: user.email })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(h.mailsTo(user.email)).toHaveLength(before);
  });

  it('validates the email (422)', async () => {
    const reply = await h.post(`${AUTH}/resend-verification`, { email: 'nope' });
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0].loc).toEqual(['body', 'email']);
  });
});

describeServer('POST /login', () => {
  it('signs a verified user in: 200 {access_token, token_type: "bearer", user}, last_login set', async () => {
    const user = await h.signedInUser();
    const reply = await h.post(`${AUTH}/login`, { email: user.email, password: user.password });
    expect(reply.status).toBe(200);
    expect(reply.body.token_type).toBe('bearer');
    expect(reply.body.expires_in).toBe(1800);
    expect(reply.body.user.email).toBe(user.email);
    expect(Date.parse(reply.body.user.last_login)).toBeGreaterThan(
      Date.parse(reply.body.user.created_at),
    );
  });

  it('accepts any case of the email', async () => {
    const user = await h.signedInUser();
    const reply = await h.post(`${AUTH}/login`, {
      email: user.email.toUpperCase(),
      password: user.password,
    });
    expect(reply.status).toBe(200);
  });

  it('accepts the OAuth2 form (username/password)', async () => {
    const user = await h.signedInUser();
    const form = new URLSearchParams({
      username: user.email,
      password: user.password,
      grant_type: 'password',
    });
    const reply = await h.post(`${AUTH}/login`, undefined, {
      raw: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.user.email).toBe(user.email);
    const wrong = await h.post(`${AUTH}/login`, undefined, {
      raw: new URLSearchParams({ username: user.email, password: 'Wrong-pass-1' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrong.status).toBe(401);
    const missing = await h.post(`${AUTH}/login`, undefined, {
      raw: 'username=',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual(
      expect.arrayContaining([
        ['body', 'username'],
        ['body', 'password'],
      ]),
    );
  });

  it('answers alike (401) for an unknown email and a wrong password', async () => {
    const user = await h.signedInUser();
    const wrong = await h.post(`${AUTH}/login`, { email: user.email, password: 'Not-the-one-1' });
    const unknown = await h.post(`${AUTH}/login`, {
      email: uniqueEmail('ghost'),
      password: 'Not-the-one-1',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Invalid email or password' });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('takes about as long for an unknown email as for a wrong password', async () => {
    const user = await h.signedInUser();
    const time = async (email: string) => {
      const started = performance.now();
      await h.post(`${AUTH}/login`, { email, password: 'Not-the-one-1' });
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      known.push(await time(user.email));
      unknown.push(await time(uniqueEmail('ghost')));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
    // Both run one argon2 verification; without the dummy one, an unknown email would be ~10× faster.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
  });

  it('says 403 "Email not verified" only once the password is right', async () => {
    const { email, password } = await h.register();
    const right = await h.post(`${AUTH}/login`, { email, password });
    expect(right.status).toBe(403);
    expect(right.body).toEqual({ detail: 'Email not verified' });
    const wrong = await h.post(`${AUTH}/login`, { email, password: 'Not-the-one-1' });
    expect(wrong.status).toBe(401);
  });

  it('validates the body (422), including unknown fields and wrong types', async () => {
    const cases: [unknown, string[][]][] = [
      [
        {},
        [
          ['body', 'email'],
          ['body', 'password'],
        ],
      ],
      [{ email: 'a@b.co', password: 5 }, [['body', 'password']]],
      [{ email: ['a@b.co'], password: 'x' }, [['body', 'email']]],
      [{ email: 'a@b.co', password: 'x', remember: true }, [['body', 'remember']]],
    ];
    for (const [body, locs] of cases) {
      const reply = await h.post(`${AUTH}/login`, body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(reply.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual(locs);
    }
    const none = await h.post(`${AUTH}/login`);
    expect(none.status).toBe(422);
  });
});
