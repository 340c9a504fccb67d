/**
 * What the speed work on the signed-in hot path (GET /auth/me, GET /chat/sessions) must keep: however
 * warm the session cache (and the prepared statement behind it: PostgreSQL switches to a generic plan
 * after five runs), a revoked session, a bumped token version, a deleted user or a changed profile is
 * seen by the very next request once the change is committed and the server has heard of it (at once
 * for the server's own writes; `h.sql` waits for it after a write straight on the database); a token
 * whose signature was checked once is still held to its expiry and to the secret it is presented
 * with; the session list counts every page right, past the end too; and CORS and security headers
 * still reach GET answers.
 */
import { randomUUID } from 'node:crypto';

import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { signAccessToken, verifyAccessToken } from '../../../server/auth/tokens';
import { describeServer, onPostgres, useTestServer } from '../harness';

const h = useTestServer();
const AUTH = '/api/v1/auth';
const C = '/api/v1/chat';
const say = (content: string) => ({ messages: [{ role: 'user', content }] });

/** Enough requests to warm every pooled connection's prepared statement past its custom plans. */
async function warm(token: string) {
  for (let round = 0; round < 4; round++) {
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => h.get(`${AUTH}/me`, { token })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
  }
}

describeServer('the session cache never outlives a change', () => {
  it('refuses a token at once when its session is revoked in the database', async () => {
    const user = await h.user();
    await warm(user.token);
    await h.sql(sql`update auth_sessions set revoked_at = now() where user_id = ${user.id}`);
    const after = await h.get(`${AUTH}/me`, { token: user.token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ detail: 'Could not validate credentials' });
  });

  it('refuses a token at once when the user’s token version moves on or the user is gone', async () => {
    const bumped = await h.user();
    await warm(bumped.token);
    await h.sql(sql`update users set token_version = token_version + 1 where id = ${bumped.id}`);
    expect((await h.get(`${AUTH}/me`, { token: bumped.token })).status).toBe(401);

    const gone = await h.user();
    await warm(gone.token);
    await h.sql(sql`delete from users where id = ${gone.id}`);
    expect((await h.get(`${AUTH}/me`, { token: gone.token })).status).toBe(401);
  });

  it('refuses a token at once after POST /logout, and after its session has expired', async () => {
    const user = await h.signedInUser();
    await warm(user.access_token);
    const out = await h.post(`${AUTH}/logout`, undefined, { token: user.access_token });
    expect(out.status).toBe(200);
    expect((await h.get(`${AUTH}/me`, { token: user.access_token })).status).toBe(401);

    const ending = await h.user();
    await warm(ending.token);
    await h.sql(
      sql`update auth_sessions set expires_at = now() - interval '1 second' where user_id = ${ending.id}`,
    );
    expect((await h.get(`${AUTH}/me`, { token: ending.token })).status).toBe(401);
  });

  it('answers a changed profile and a changed password at once, on every session of the user', async () => {
    const user = await h.signedInUser();
    const other = await h.post(`${AUTH}/login`, { email: user.email, password: user.password });
    expect(other.status).toBe(200);
    const elsewhere = other.body.access_token as string;
    await warm(user.access_token);
    await warm(elsewhere);

    const renamed = await h.put(
      `${AUTH}/profile`,
      { display_name: 'Renamed', bio: 'New bio' },
      { token: user.access_token },
    );
    expect(renamed.status).toBe(200);
    for (const token of [user.access_token, elsewhere]) {
      const me = await h.get(`${AUTH}/me`, { token });
      expect(me.body.user).toMatchObject({ display_name: 'Renamed', bio: 'New bio' });
    }

    const changed = await h.post(
      `${AUTH}/change-password`,
      { current_password: user.password, new_password: 'Quiet-Harbour-81' },
      { token: user.access_token },
    );
    expect(changed.status).toBe(200);
    // The other sessions end with the change; the one that made it goes on.
    expect((await h.get(`${AUTH}/me`, { token: elsewhere })).status).toBe(401);
    expect((await h.get(`${AUTH}/me`, { token: user.access_token })).status).toBe(200);
  });

  it('answers a warm session from memory, for at most a minute past a change nobody announced', async () => {
    const user = await h.user();
    await warm(user.token);
    // Triggers do not fire for a replica's writes: this revocation is never announced.
    await h.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update auth_sessions set revoked_at = now() where user_id = ${user.id}`);
    });
    await h.database.notifications.caughtUp();
    expect((await h.get(`${AUTH}/me`, { token: user.token })).status).toBe(200);
    h.advanceClock(60_000);
    try {
      expect((await h.get(`${AUTH}/me`, { token: user.token })).status).toBe(401);
    } finally {
      h.resetClock();
    }
  });

  it.skipIf(!onPostgres)(
    'stops using the cache while its listening connection is lost, and again when it is back',
    async () => {
      const user = await h.user();
      await warm(user.token);
      const listening = sql`select pid from pg_stat_activity
        where application_name = 'ayah-listen' and datname = current_database()`;
      expect(await h.sql(listening)).toHaveLength(1);
      await h.sql(sql`select pg_terminate_backend(pid) from (${listening}) as listener`);
      // Nobody hears this one: the server must not answer from what it held before.
      await h.sql(sql`update auth_sessions set revoked_at = now() where user_id = ${user.id}`);
      expect((await h.get(`${AUTH}/me`, { token: user.token })).status).toBe(401);

      // It listens again within its first retry, and answers from memory again (a revocation that
      // is never announced goes unseen until the entry's minute is up).
      await expect.poll(async () => (await h.sql(listening)).length, { timeout: 5_000 }).toBe(1);
      const again = await h.user();
      let round = 0;
      await expect
        .poll(
          async () => {
            await warm(again.token);
            const bio = `unannounced ${++round}`;
            await h.database.db.transaction(async (tx) => {
              await tx.execute(sql`set local session_replication_role = replica`);
              await tx.execute(sql`update users set bio = ${bio} where id = ${again.id}`);
            });
            const seen = (await h.get(`${AUTH}/me`, { token: again.token })).body.user.bio;
            return seen === bio ? 'read from the database' : 'answered from memory';
          },
          { timeout: 5_000 },
        )
        .toBe('answered from memory');
    },
  );

  it('answers each user with their own profile, however interleaved', async () => {
    const users = await Promise.all(['Ada', 'Ben', 'Cy'].map((name) => h.user(name)));
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => h.get(`${AUTH}/me`, { token: users[i % 3]!.token })),
    );
    replies.forEach((reply, i) => {
      expect(reply.status).toBe(200);
      expect(reply.body.user.id).toBe(users[i % 3]!.id);
      expect(reply.body.user.display_name).toBe(['Ada', 'Ben', 'Cy'][i % 3]);
    });
  });
});

describeServer('a token verified once', () => {
  it('is still refused once it expires, and accepted again only inside its time', async () => {
    const user = await h.user();
    const exp = JSON.parse(Buffer.from(user.token.split('.')[1]!, 'base64url').toString()).exp;
    await warm(user.token);
    h.advanceClock(exp * 1000 - h.now().getTime() + 6_000); // past exp and its 5 s tolerance
    try {
      const late = await h.get(`${AUTH}/me`, { token: user.token });
      expect(late.status).toBe(401);
      expect(late.body).toEqual({ detail: 'Token has expired' });
    } finally {
      h.resetClock();
    }
    expect((await h.get(`${AUTH}/me`, { token: user.token })).status).toBe(200);
  });

  it('is checked against the secret it is presented with', async () => {
    const secret = new TextEncoder().encode('a'.repeat(40));
    const other = new TextEncoder().encode('b'.repeat(40));
    const now = new Date();
    const claims = { sub: randomUUID(), sid: randomUUID(), tv: 3 };
    const token = await signAccessToken(claims, secret, now, 600);
    expect(await verifyAccessToken(token, secret, now)).toEqual({ ok: true, claims });
    expect(await verifyAccessToken(token, secret, now)).toEqual({ ok: true, claims });
    expect(await verifyAccessToken(token, other, now)).toEqual({ ok: false, reason: 'invalid' });
    const later = new Date(now.getTime() + 606_000);
    expect(await verifyAccessToken(token, secret, later)).toEqual({ ok: false, reason: 'expired' });
  });
});

describeServer('GET /chat/sessions counts every page', () => {
  it('gives the total on each page, past the end, with none, and for archived sessions', async () => {
    const api = h.as(await h.user());
    expect((await api.get(`${C}/sessions`)).body).toEqual({
      sessions: [],
      total: 0,
      page: 1,
      limit: 20,
      hasMore: false,
    });
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three', 'four', 'five'])
      ids.push((await api.post(`${C}/send`, say(text))).body.sessionId);

    const page = async (n: number, archived = false) =>
      (await api.get(`${C}/${archived ? 'archives' : 'sessions'}?limit=2&page=${n}`)).body;
    expect(await page(1)).toMatchObject({ total: 5, page: 1, limit: 2, hasMore: true });
    expect((await page(1)).sessions.map((s: { title: string }) => s.title)).toEqual([
      'five',
      'four',
    ]);
    expect(await page(3)).toMatchObject({ total: 5, hasMore: false });
    expect((await page(3)).sessions).toHaveLength(1);
    expect(await page(4)).toEqual({ sessions: [], total: 5, page: 4, limit: 2, hasMore: false });

    for (const id of ids.slice(0, 3)) {
      expect((await api.patch(`${C}/sessions/${id}/archive`)).status).toBe(200);
    }
    expect(await page(1)).toMatchObject({ total: 2, hasMore: false });
    expect(await page(1, true)).toMatchObject({ total: 3, hasMore: true });
    expect(await page(2, true)).toMatchObject({ total: 3, hasMore: false });
    expect(await page(9, true)).toMatchObject({ sessions: [], total: 3, hasMore: false });
  });
});

describeServer('headers on GET answers', () => {
  it('carries CORS for a listed origin (also on a 401), Vary: Origin and the security headers', async () => {
    const user = await h.user();
    const origin = new URL(h.config.publicUrl).origin;
    for (const token of [user.token, undefined]) {
      const reply = await h.get(`${AUTH}/me`, { token, headers: { origin } });
      expect(reply.status).toBe(token ? 200 : 401);
      expect(reply.headers.get('access-control-allow-origin')).toBe(origin);
      expect(reply.headers.get('access-control-expose-headers')).toBe('Retry-After');
      expect(reply.headers.get('vary')).toBe('Origin');
      expect(reply.headers.get('content-security-policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(reply.headers.get('cache-control')).toBe('no-store');
      expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    }
    const stranger = await h.get(`${AUTH}/me`, {
      token: user.token,
      headers: { origin: 'https://evil.example' },
    });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    expect(stranger.headers.get('vary')).toBe('Origin');
    const unmatched = await h.get('/api/v1/no-such-path', { headers: { origin } });
    expect(unmatched.status).toBe(404);
    expect(unmatched.body).toEqual({ detail: 'Not Found' });
    expect(unmatched.headers.get('access-control-allow-origin')).toBe(origin);
  });
});
