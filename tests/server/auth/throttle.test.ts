/** Login throttling per account and per address (short windows), and the mail cooldown. */
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { loginThrottle } from '../../../server/db/schema';
import { describeServer, tokenOf, uniqueEmail, useTestServer } from '../harness';

const BASE = 400;
const CAP = 1000;
const MAIL_PER_ADDRESS = 4;
const MAIL_PER_EMAIL = 3;
const limited = useTestServer({
  trustProxy: true,
  limits: {
    accountMailPerAddress: { limit: MAIL_PER_ADDRESS, windowMs: 60_000 },
    accountMailPerEmail: { limit: MAIL_PER_EMAIL, windowMs: 60_000 },
  },
});
const h = useTestServer({
  trustProxy: true,
  auth: {
    mailCooldownMs: 60_000,
    throttle: {
      account: { threshold: 3, baseLockMs: BASE, maxLockMs: CAP },
      address: { threshold: 6, baseLockMs: BASE, maxLockMs: CAP },
      forgetAfterMs: 5000,
    },
  },
});
const AUTH = '/api/v1/auth';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let addressCounter = 0;
/** Each test speaks from its own client address, so that tests do not throttle each other. */
function client() {
  const address = `203.0.113.${++addressCounter}`;
  return (email: string, password: string) =>
    h.post(`${AUTH}/login`, { email, password }, { headers: { 'x-forwarded-for': address } });
}

async function lockOf(email: string) {
  const [row] = await h.database.db
    .select()
    .from(loginThrottle)
    .where(eq(loginThrottle.key, `account:${email.toLowerCase()}`));
  return row;
}

describeServer('login throttling', () => {
  it('locks an account after repeated failures (429 + Retry-After), then lets the right password in', async () => {
    const login = client();
    const user = await h.signedInUser();
    // The clock stands still, so that a slow machine cannot outlast the lock between two requests.
    h.freezeClock();
    try {
      for (let i = 0; i < 3; i++) {
        expect((await login(user.email, 'Wrong-Guess-1')).status).toBe(401);
      }
      const locked = await login(user.email, user.password);
      expect(locked.status).toBe(429);
      expect(locked.body).toEqual({
        detail: 'Too many failed sign-in attempts. Please try again later.',
      });
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Another client is locked out of that account too (the lock is per account) …
      expect((await client()(user.email, user.password)).status).toBe(429);
      h.advanceClock(BASE + 100);
      // … but only for a while: then the right password works and clears the count.
      expect((await login(user.email, user.password)).status).toBe(200);
      expect(await lockOf(user.email)).toBeUndefined();
    } finally {
      h.resetClock();
    }
  });

  it('throttles change-password like login: guesses of the current password lock the account', async () => {
    const user = await h.signedInUser();
    const change = (current: string) =>
      h.post(
        `${AUTH}/change-password`,
        { current_password: current, new_password: 'Green-Teapot-77' },
        { token: user.access_token },
      );
    h.freezeClock();
    try {
      // 12 concurrent guesses: only the threshold are evaluated, the rest answer 429 at once.
      const replies = await Promise.all(
        Array.from({ length: 12 }, (_, i) => change(`Wrong-Guess-${i}`)),
      );
      expect(replies.filter((r) => r.status === 400)).toHaveLength(3);
      expect(replies.filter((r) => r.status === 429)).toHaveLength(9);
      const locked = await change(user.password);
      expect(locked.status).toBe(429);
      expect(locked.body).toEqual({
        detail: 'Too many failed sign-in attempts. Please try again later.',
      });
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // The same account lock as login's: the password cannot be guessed there meanwhile either.
      expect((await client()(user.email, user.password)).status).toBe(429);
      h.advanceClock(BASE + 100);
      expect((await change(user.password)).status).toBe(200);
      expect(await lockOf(user.email)).toBeUndefined();
    } finally {
      h.resetClock();
    }
  });

  it('counts and checks in one step: of 30 concurrent wrong passwords exactly the threshold are evaluated', async () => {
    const user = await h.signedInUser();
    // Each from its own address, so that only the account's count can stop them; the clock stands
    // still, so that a slow machine cannot outlast the first lock while the burst is still arriving.
    h.freezeClock();
    const replies = await Promise.all(
      Array.from({ length: 30 }, () => client()(user.email, 'Wrong-Guess-1')),
    ).finally(() => h.resetClock());
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(27);
    expect((await lockOf(user.email))?.failures).toBe(3);
  });

  it('answers an unknown account exactly like a real one', async () => {
    const login = client();
    const ghost = uniqueEmail('ghost');
    // The clock stands still: an unknown account's failures cost a dummy hash each, and on a busy
    // machine the third one's 400 ms lock could end before the fourth request arrives.
    h.freezeClock();
    try {
      for (let i = 0; i < 3; i++) expect((await login(ghost, 'Wrong-Guess-1')).status).toBe(401);
      const locked = await login(ghost, 'Wrong-Guess-1');
      expect(locked.status).toBe(429);
      expect(locked.body).toEqual({
        detail: 'Too many failed sign-in attempts. Please try again later.',
      });
    } finally {
      h.resetClock();
    }
  });

  it('doubles the lock with each further failure, up to the cap', async () => {
    const login = client();
    const user = await h.signedInUser();
    const locks: number[] = [];
    h.freezeClock();
    try {
      for (let failure = 1; failure <= 5; failure++) {
        const reply = await login(user.email, 'Wrong-Guess-1');
        expect(reply.status).toBe(401);
        const row = await lockOf(user.email);
        const ms = row?.lockedUntil ? row.lockedUntil.getTime() - row.lastFailureAt.getTime() : 0;
        locks.push(ms);
        if (ms > 0) h.advanceClock(ms + 50);
      }
      expect(locks).toEqual([0, 0, BASE, 2 * BASE, CAP]);
      expect((await login(user.email, user.password)).status).toBe(200);
    } finally {
      h.resetClock();
    }
  });

  it('forgets failures after the window', async () => {
    const login = client();
    const user = await h.signedInUser();
    await login(user.email, 'Wrong-Guess-1');
    await login(user.email, 'Wrong-Guess-1');
    h.advanceClock(6000);
    try {
      await login(user.email, 'Wrong-Guess-1');
      expect((await lockOf(user.email))?.failures).toBe(1);
      expect((await login(user.email, user.password)).status).toBe(200);
    } finally {
      h.resetClock();
    }
  });

  it('locks a client address that guesses at many accounts, for a while', async () => {
    const login = client();
    const user = await h.signedInUser();
    h.freezeClock();
    try {
      for (let i = 0; i < 6; i++) {
        expect((await login(uniqueEmail('spray'), 'Wrong-Guess-1')).status).toBe(401);
      }
      expect((await login(user.email, user.password)).status).toBe(429);
      // The same account from elsewhere is fine: the lock is on the address.
      expect((await client()(user.email, user.password)).status).toBe(200);
      h.advanceClock(BASE + 100);
      expect((await login(user.email, user.password)).status).toBe(200);
    } finally {
      h.resetClock();
    }
  });

  it('a password reset clears the account lock', async () => {
    const login = client();
    const user = await h.signedInUser();
    for (let i = 0; i < 3; i++) await login(user.email, 'Wrong-Guess-1');
    expect((await lockOf(user.email))?.lockedUntil).toBeTruthy();
    await h.post(`${AUTH}/password-reset`, { email: user.email });
    const token = tokenOf(await h.mailTo(user.email, /Reset/));
    const reset = await h.post(`${AUTH}/password-reset/confirm`, {
      token,
      new_password: 'Quiet-Lantern-63',
    });
    expect(reset.status).toBe(200);
    expect(await lockOf(user.email)).toBeUndefined();
  });
});

describeServer('mail cooldown', () => {
  it('sends at most one verification mail a minute per address, and says when another can go', async () => {
    const { email } = await h.register();
    await h.mailTo(email);
    const reply = await h.post(`${AUTH}/resend-verification`, { email });
    expect(reply.status).toBe(200);
    // Inside the minute after the sign-up mail: nothing is sent, and the answer says so.
    expect(reply.body).toEqual({
      message: expect.stringContaining('You can ask for another in 60 seconds'),
      retry_after: 60,
    });
    await sleep(100);
    expect(h.mailsTo(email)).toHaveLength(1);
    h.advanceClock(61_000);
    try {
      expect((await h.post(`${AUTH}/resend-verification`, { email })).body).toEqual({
        message: expect.stringContaining('a new verification email has been sent'),
        retry_after: 60,
      });
      await expect.poll(() => h.mailsTo(email).length).toBe(2);
    } finally {
      h.resetClock();
    }
  });

  it('sends at most one reset mail a minute per address', async () => {
    const user = await h.signedInUser();
    await h.post(`${AUTH}/password-reset`, { email: user.email });
    await h.mailTo(user.email, /Reset/);
    await h.post(`${AUTH}/password-reset`, { email: user.email });
    await sleep(100);
    expect(h.mailsTo(user.email).filter((m) => /Reset/.test(m.subject))).toHaveLength(1);
  });
});

describeServer('sign-up and mail throttling per client address and per email', () => {
  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

  it('limits registrations per client address (429 + Retry-After), before any hashing or mail', async () => {
    const address = '198.51.100.1';
    const replies = [];
    for (let i = 0; i < MAIL_PER_ADDRESS + 2; i++) {
      replies.push(
        await limited.post(
          `${AUTH}/register`,
          {
            email: uniqueEmail('burst'),
            password: 'Blue-Kettle-42',
            display_name: 'Burst',
            agreed_to_terms: true,
            agreed_to_privacy: true,
          },
          from(address),
        ),
      );
    }
    expect(replies.map((r) => r.status)).toEqual([...Array(MAIL_PER_ADDRESS).fill(201), 429, 429]);
    const refused = replies.at(-1)!;
    expect(refused.body).toEqual({ detail: 'Too many requests. Please try again later.' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another address may still register.
    const other = await limited.post(
      `${AUTH}/register`,
      {
        email: uniqueEmail('other'),
        password: 'Blue-Kettle-42',
        display_name: 'Other',
        agreed_to_terms: true,
        agreed_to_privacy: true,
      },
      from('198.51.100.2'),
    );
    expect(other.status).toBe(201);
  });

  it('limits concurrent registrations exactly', async () => {
    const replies = await Promise.all(
      Array.from({ length: 12 }, () =>
        limited.post(
          `${AUTH}/register`,
          {
            email: uniqueEmail('rush'),
            password: 'Blue-Kettle-42',
            display_name: 'Rush',
            agreed_to_terms: true,
            agreed_to_privacy: true,
          },
          from('198.51.100.3'),
        ),
      ),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(MAIL_PER_ADDRESS);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(12 - MAIL_PER_ADDRESS);
  });

  it.each(['resend-verification', 'password-reset'])(
    'limits /%s per client address and per email, whether or not the account exists',
    async (path) => {
      const address = `198.51.100.${path.length + 10}`;
      const statuses = [];
      for (let i = 0; i < MAIL_PER_ADDRESS + 1; i++) {
        statuses.push(
          (await limited.post(`${AUTH}/${path}`, { email: uniqueEmail('x') }, from(address)))
            .status,
        );
      }
      expect(statuses).toEqual([...Array(MAIL_PER_ADDRESS).fill(200), 429]);

      const email = uniqueEmail('target');
      const perEmail = [];
      for (let i = 0; i < MAIL_PER_EMAIL + 1; i++) {
        // Each from a new address: only the email's count can stop them.
        perEmail.push(
          (
            await limited.post(
              `${AUTH}/${path}`,
              { email },
              from(`192.0.2.${i + path.length * 10}`),
            )
          ).status,
        );
      }
      expect(perEmail).toEqual([...Array(MAIL_PER_EMAIL).fill(200), 429]);
    },
  );
});
