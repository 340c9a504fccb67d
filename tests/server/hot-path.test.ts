/**
 * What the speed work on the signed-in hot path (GET /auth/me, GET /chat/sessions) must keep: the
 * session lookup is a prepared statement read afresh on every request, so a revoked session, a bumped
 * token version or a deleted user is refused on the very next request, however warm the statement
 * (PostgreSQL switches a prepared statement to a generic plan after five runs); a token whose
 * signature was checked once is still held to its expiry and to the secret it is presented with;
 * the session list counts every page right, past the end too; and CORS and security headers still
 * reach GET answers.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { signAccessToken, verifyAccessToken } from '../../server/auth/tokens';
import { describeServer, useServer } from './harness';

const h = useServer();
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

describeServer('the session lookup is never cached', () => {
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
