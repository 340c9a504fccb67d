/** Password reset: request and confirm, over real HTTP. */
import { expect, it } from 'vitest';

import { describeServer, tokenOf, uniqueEmail, useTestServer } from '../harness';

const h = useTestServer();
const AUTH = '/api/v1/auth';
const NEW = 'Violet-Harbour-19';

async function resetToken(email: string): Promise<string> {
  const before = h.mailsTo(email).filter((m) => /Reset/.test(m.subject)).length;
  const reply = await h.post(`${AUTH}/password-reset`, { email });
  expect(reply.status).toBe(200);
  await expect
    .poll(() => h.mailsTo(email).filter((m) => /Reset/.test(m.subject)).length)
    .toBe(before + 1);
  return tokenOf(
    h
      .mailsTo(email)
      .filter((m) => /Reset/.test(m.subject))
      .at(-1)!,
  );
}

describeServer('POST /password-reset', () => {
  it('answers the same whether or not the address exists, and mails only a real account', async () => {
    const user = await h.signedInUser();
    const ghost = uniqueEmail('ghost');
    const real = await h.post(`${AUTH}/password-reset`, { email: user.email });
    const none = await h.post(`${AUTH}/password-reset`, { email: ghost });
    expect(real.status).toBe(200);
    expect(none.status).toBe(200);
    expect(real.body).toEqual(none.body);
    expect(Object.keys(real.body)).toEqual(['message']);
    const mail = await h.mailTo(user.email, /Reset/);
    expect(mail.link).toMatch(/^http:\/\/app\.test\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain('1 hour');
    expect(h.mailsTo(ghost)).toHaveLength(0);
  });

  it('validates the body (422)', async () => {
    for (const body of [{}, { email: 'x' }, { email: 'a@b.co', extra: 1 }, { email: null }]) {
      const reply = await h.post(`${AUTH}/password-reset`, body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
    }
  });
});

describeServer('POST /password-reset/confirm', () => {
  it('sets the new password and signs every session out', async () => {
    const user = await h.signedInUser();
    const token = await resetToken(user.email);
    const reply = await h.post(`${AUTH}/password-reset/confirm`, { token, new_password: NEW });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['message']);
    expect((await h.get(`${AUTH}/me`, { token: user.access_token })).status).toBe(401);
    expect((await h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token })).status).toBe(
      401,
    );
    expect(
      (await h.post(`${AUTH}/login`, { email: user.email, password: user.password })).status,
    ).toBe(401);
    expect((await h.post(`${AUTH}/login`, { email: user.email, password: NEW })).status).toBe(200);
  });

  it('is single-use: a replayed token is 400', async () => {
    const user = await h.signedInUser();
    const token = await resetToken(user.email);
    expect(
      (await h.post(`${AUTH}/password-reset/confirm`, { token, new_password: NEW })).status,
    ).toBe(200);
    const again = await h.post(`${AUTH}/password-reset/confirm`, {
      token,
      new_password: 'Another-Pass-88',
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: 'Invalid or expired reset token' });
    expect((await h.post(`${AUTH}/login`, { email: user.email, password: NEW })).status).toBe(200);
  });

  it('lets exactly one of five concurrent confirms through', async () => {
    const user = await h.signedInUser();
    const token = await resetToken(user.email);
    const passwords = [
      'Alpha-Pass-11',
      'Bravo-Pass-22',
      'Charlie-Pass-33',
      'Delta-Pass-44',
      'Echo-Pass-55',
    ];
    const replies = await Promise.all(
      passwords.map((new_password) =>
        h.post(`${AUTH}/password-reset/confirm`, { token, new_password }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
    const winner = passwords[replies.findIndex((r) => r.status === 200)]!;
    expect((await h.post(`${AUTH}/login`, { email: user.email, password: winner })).status).toBe(
      200,
    );
  });

  it('expires after 1 hour', async () => {
    const user = await h.signedInUser();
    const token = await resetToken(user.email);
    h.advanceClock(3600_000 + 1000);
    try {
      const reply = await h.post(`${AUTH}/password-reset/confirm`, { token, new_password: NEW });
      expect(reply.status).toBe(400);
    } finally {
      h.resetClock();
    }
  });

  it('keeps only the newest link alive', async () => {
    const user = await h.signedInUser();
    const first = await resetToken(user.email);
    const second = await resetToken(user.email);
    expect(
      (await h.post(`${AUTH}/password-reset/confirm`, { token: first, new_password: NEW })).status,
    ).toBe(400);
    expect(
      (await h.post(`${AUTH}/password-reset/confirm`, { token: second, new_password: NEW })).status,
    ).toBe(200);
  });

  it('verifies an unverified address (the mailbox is proven)', async () => {
    const { email, password } = await h.register();
    expect((await h.post(`${AUTH}/login`, { email, password })).status).toBe(403);
    const token = await resetToken(email);
    expect(
      (await h.post(`${AUTH}/password-reset/confirm`, { token, new_password: NEW })).status,
    ).toBe(200);
    expect((await h.post(`${AUTH}/login`, { email, password: NEW })).status).toBe(200);
  });

  it('refuses weak and common new passwords (422) without using the token up', async () => {
    const user = await h.signedInUser();
    const token = await resetToken(user.email);
    for (const weak of ['abc', 'alllowercase1!', 'P@ssw0rd']) {
      const reply = await h.post(`${AUTH}/password-reset/confirm`, { token, new_password: weak });
      expect(reply.status, weak).toBe(422);
      expect(reply.body.detail[0].loc).toEqual(['body', 'new_password']);
    }
    expect(
      (await h.post(`${AUTH}/password-reset/confirm`, { token, new_password: NEW })).status,
    ).toBe(200);
  });

  it('refuses unknown tokens (400), and a verification token is no reset token', async () => {
    expect(
      (await h.post(`${AUTH}/password-reset/confirm`, { token: 'made-up', new_password: NEW }))
        .status,
    ).toBe(400);
    const { email } = await h.register();
    const verification = tokenOf(await h.mailTo(email, /Confirm/));
    expect(
      (await h.post(`${AUTH}/password-reset/confirm`, { token: verification, new_password: NEW }))
        .status,
    ).toBe(400);
    expect((await h.post(`${AUTH}/verify-email`, { token: verification })).status).toBe(200);
    const wrongTypes = await h.post(`${AUTH}/password-reset/confirm`, {
      token: ['x'],
      new_password: {},
    });
    expect(wrongTypes.status).toBe(422);
    expect(wrongTypes.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([
      ['body', 'token'],
      ['body', 'new_password'],
    ]);
  });
});

describeServer('everything at once on one account', () => {
  it('never deadlocks: refreshes, resets, a password change and verifications race without a 5xx', async () => {
    for (let round = 0; round < 6; round++) {
      const user = await h.signedInUser();
      const reset = await resetToken(user.email);
      const { email } = await h.register();
      await h.post(`${AUTH}/resend-verification`, { email });
      await expect.poll(() => h.mailsTo(email).length).toBe(2);
      const verifications = h.mailsTo(email).map(tokenOf);
      const replies = await Promise.all([
        ...Array.from({ length: 4 }, () =>
          h.post(`${AUTH}/refresh`, { refresh_token: user.refresh_token }),
        ),
        ...Array.from({ length: 3 }, () =>
          h.post(`${AUTH}/password-reset/confirm`, { token: reset, new_password: NEW }),
        ),
        h.post(
          `${AUTH}/change-password`,
          { current_password: user.password, new_password: 'Other-Harbour-27' },
          { token: user.access_token },
        ),
        ...verifications.flatMap((token) => [
          h.post(`${AUTH}/verify-email`, { token }),
          h.post(`${AUTH}/verify-email`, { token }),
        ]),
      ]);
      expect(replies.filter((r) => r.status >= 500)).toEqual([]);
      // At most one reset takes the token. None does only when the password change committed first:
      // it retires the user's reset tokens (as it always has), so one of the two writes took effect.
      const resets = replies.slice(4, 7).filter((r) => r.status === 200).length;
      expect(resets).toBeLessThanOrEqual(1);
      expect(resets + (replies[7]!.status === 200 ? 1 : 0)).toBeGreaterThanOrEqual(1);
      expect(replies.slice(8).filter((r) => r.status === 200)).toHaveLength(1);
    }
    expect(h.logs.filter((l) => l.level === 'error')).toEqual([]);
  });
});
