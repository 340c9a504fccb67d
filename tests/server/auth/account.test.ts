/**
 * `GET /auth/export` and `DELETE /auth/account` over real HTTP, on PGlite and PostgreSQL: the export
 * holds everything, deletion needs its confirmation, removes every row of the student in every table
 * (found from the schema itself, so a table added later is covered) and makes every old token 401.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { sql } from 'drizzle-orm';
import { Wallet } from 'ethers';
import { beforeAll, expect, it } from 'vitest';

import { ACCOUNT_MESSAGES } from '../../../server/auth/account/service';
import { signAccessToken } from '../../../server/auth/tokens';
import { authSessions, avatars } from '../../../server/db/schema';
import type { TestUser } from '../harness';
import { describeServer, isFastApiError, useTestServer } from '../harness';

const h = useTestServer();
const outbox = () => path.join(h.dataDir, 'outbox');
/** What an email account's deletion asks for. */
const deleteConfirmation = (student: { email: string; password: string }) => ({
  confirm: student.email,
  password: student.password,
});
const A = '/api/v1/auth';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Every table with a `user_id` column, from the live schema. */
async function userTables(): Promise<string[]> {
  const rows = await h.sql<{ table_name: string }>(
    sql`select table_name from information_schema.columns
        where column_name = 'user_id' and table_schema = current_schema() order by table_name`,
  );
  return rows.map((row) => row.table_name);
}

/** Rows of `userId` per table (the users row included), leaving out the empty ones. */
async function rowsOf(userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of [...(await userTables()), 'users']) {
    const column = table === 'users' ? 'id' : 'user_id';
    const [row] = await h.sql<{ n: number | string }>(
      sql`select count(*) as n from ${sql.identifier(table)} where ${sql.identifier(column)} = ${userId}`,
    );
    if (Number(row!.n) > 0) counts[table] = Number(row!.n);
  }
  return counts;
}

/** A second sign-in of `user`: another session and its token. */
async function secondToken(user: TestUser): Promise<string> {
  const [session] = await h.database.db
    .insert(authSessions)
    .values({ userId: user.id, expiresAt: new Date(Date.now() + 86_400_000) })
    .returning();
  return signAccessToken(
    { sub: user.id, sid: session!.id, tv: 0 },
    h.config.jwtSecret,
    h.now(),
    3600,
  );
}

/** A student who has used everything: chats, goals, points, a conversion, memory, an avatar. */
async function busyStudent(): Promise<TestUser> {
  const user = await h.user('Robin');
  const api = h.as(user);
  const sent = await api.post('/api/v1/chat/send', {
    messages: [{ role: 'user', content: 'What is a prime number?' }],
  });
  expect(sent.status).toBe(200);
  const goal = await api.post('/api/v1/goal', {
    subject: 'math',
    goal_type: 'problems_solved',
    target_value: 4,
  });
  expect(goal.status).toBe(201);
  expect((await api.post(`/api/v1/goal/${goal.body.goal._id}/progress`, { value: 4 })).status).toBe(
    201,
  );
  await h.grant(user.id, 200);
  expect(
    (await api.post('/api/v1/web3-tokens/convert-points-to-finu', { points: 100 })).status,
  ).toBe(201);
  expect(
    (await api.post('/api/v1/vector/store-user-data', { text: 'Primes: 2, 3, 5, 7' })).status,
  ).toBe(201);
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'me.png');
  const uploaded = await fetch(`${h.url}${A}/profile/upload-avatar`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  expect(uploaded.status).toBe(200);
  return user;
}

describeServer('account export and deletion', () => {
  let robin: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    robin = await busyStudent();
    other = await busyStudent();
  });

  it('asks for a token', async () => {
    expect((await h.request('GET', `${A}/export`)).status).toBe(401);
    const reply = await h.request('DELETE', `${A}/account`, { confirm: 'x@example.com' });
    expect(reply.status).toBe(401);
    expect(isFastApiError(reply.body)).toBe(true);
  });

  it('exports everything the account holds as one JSON document', async () => {
    const reply = await h.as(robin).get(`${A}/export`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-disposition')).toContain('attachment');
    const data = reply.body;
    expect(data.user).toMatchObject({ id: robin.id, email: robin.email, display_name: 'Robin' });
    expect(data.avatar.data_url).toMatch(/^data:image\/png;base64,/);
    expect(data.chats).toHaveLength(1);
    expect(data.chats[0].messages.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
    ]);
    expect(data.chats[0].messages[0].content).toBe('What is a prime number?');
    expect(data.goals).toHaveLength(1);
    expect(data.goals[0]).toMatchObject({ subject: 'math', target_value: 4, total_value: 4 });
    expect(data.goals[0].progress).toHaveLength(1);
    expect(data.points_ledger.length).toBeGreaterThanOrEqual(3);
    expect(data.conversions).toEqual([expect.objectContaining({ points: 100, tokens: 10 })]);
    expect(data.learning_memory.map((m: { text: string }) => m.text)).toContain(
      'Primes: 2, 3, 5, 7',
    );
    expect(data.portal_identities).toEqual([]);
    // Nothing of another student.
    expect(JSON.stringify(data)).not.toContain(other.id);
  });

  it('streams the export of a long chat, page by page, as one valid document', async () => {
    const reader = await h.user('Reader');
    // 2,500 messages written straight in the database: more than two of the export's pages.
    const { rows } = (await h.database.db.execute(sql`
      insert into chat_sessions (user_id, title, message_count, created_at, last_message_at)
      values (${reader.id}, 'Reading log', 2500, now() - interval '1 day', now())
      returning id`)) as unknown as { rows: { id: string }[] };
    const sessionId = rows[0]!.id;
    await h.database.db.execute(sql`
      insert into chat_messages (session_id, user_id, role, content, created_at)
      select ${sessionId}, ${reader.id}, case when k % 2 = 1 then 'user' else 'assistant' end,
             'Message ' || k || ' "quoted" \\ and a line' || chr(10) || 'break',
             now() - interval '1 day' + (k || ' milliseconds')::interval
      from generate_series(1, 2500) k`);

    const response = await fetch(`${h.url}${A}/export`, {
      headers: { authorization: `Bearer ${reader.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('content-disposition')).toContain('attachment');
    // Written as it is read: no length known up front.
    expect(response.headers.get('content-length')).toBeNull();
    const data = JSON.parse(await response.text());
    expect(Object.keys(data)).toEqual([
      'exported_at',
      'user',
      'avatar',
      'chats',
      'goals',
      'points_ledger',
      'conversions',
      'learning_memory',
      'portal_identities',
      'classes',
      'safety_alerts',
    ]);
    expect(data.chats).toHaveLength(1);
    expect(Object.keys(data.chats[0])).toEqual([
      'id',
      'title',
      'created_at',
      'last_message_at',
      'archived_at',
      'messages',
    ]);
    const messages = data.chats[0].messages as { content: string; role: string }[];
    expect(messages).toHaveLength(2500);
    expect(messages.map((m) => m.content)).toEqual(
      Array.from({ length: 2500 }, (_, i) => `Message ${i + 1} "quoted" \\ and a line\nbreak`),
    );
    expect(messages[0]!.role).toBe('user');
  });

  it('refuses a deletion without the right confirmation and keeps everything', async () => {
    const before = await rowsOf(robin.id);
    const reply = await h.request(
      'DELETE',
      `${A}/account`,
      { confirm: 'someone@example.com' },
      { token: robin.token },
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ detail: ACCOUNT_MESSAGES.confirmEmail });
    expect(await rowsOf(robin.id)).toEqual(before);
    expect((await h.request('DELETE', `${A}/account`, {}, { token: robin.token })).status).toBe(
      422,
    );
  });

  it('deletes every row of the student in every table, and every old token is 401', async () => {
    const second = await secondToken(robin);
    const before = await rowsOf(robin.id);
    for (const table of [
      'users',
      'auth_sessions',
      'avatars',
      'chat_sessions',
      'chat_messages',
      'goals',
      'goal_progress',
      'points_ledger',
      'conversions',
      'learning_memories',
    ])
      expect(before[table], table).toBeGreaterThan(0);
    const otherBefore = await rowsOf(other.id);

    const reply = await h.request(
      'DELETE',
      `${A}/account`,
      { confirm: robin.email.toUpperCase() },
      { token: robin.token },
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ message: ACCOUNT_MESSAGES.deleted });

    expect(await rowsOf(robin.id)).toEqual({});
    const avatarsLeft = await h.database.db.select().from(avatars);
    expect(avatarsLeft.some((row) => row.userId === robin.id)).toBe(false);
    for (const token of [robin.token, second]) {
      expect((await h.as(token).get(`${A}/me`)).status).toBe(401);
      expect((await h.as(token).get('/api/v1/web3-tokens/finu-balance')).status).toBe(401);
    }
    // Another student keeps everything.
    expect(await rowsOf(other.id)).toEqual(otherBefore);
    expect((await h.as(other).get(`${A}/me`)).status).toBe(200);
  });

  it('deletion also removes the student’s rate-limit rows and their mails in the outbox', async () => {
    const student = await h.signedInUser();
    const api = h.as(student.access_token);
    await h.post(`${A}/password-reset`, { email: student.email });
    await h.mailTo(student.email, /reset/i);
    expect(
      (
        await api.post('/api/v1/goal', {
          subject: 'math',
          goal_type: 'problems_solved',
          target_value: 2,
        })
      ).status,
    ).toBe(201);
    const traces = async () => ({
      limits: (
        await h.sql<{ key: string }>(
          sql`select key from rate_limits where position(${student.email} in key) > 0
              or position(${student.user.id} in key) > 0`,
        )
      ).map((row) => row.key),
      mails: readdirSync(outbox())
        .map((name) => readFileSync(path.join(outbox(), name), 'utf8'))
        .filter((text) => text.includes(student.email)),
    });
    const before = await traces();
    expect(before.limits.length).toBeGreaterThanOrEqual(2);
    expect(before.mails.length).toBe(2);
    // Another student's mail stays.
    const other = await h.signedInUser();

    const reply = await h.request('DELETE', `${A}/account`, deleteConfirmation(student), {
      token: student.access_token,
    });
    expect(reply.status).toBe(200);
    expect(await traces()).toEqual({ limits: [], mails: [] });
    expect(
      readdirSync(outbox()).some((name) =>
        readFileSync(path.join(outbox(), name), 'utf8').includes(other.email),
      ),
    ).toBe(true);
  });

  it('an email account confirms with its password, not the access token alone', async () => {
    const student = await h.signedInUser();
    const del = (body: Record<string, string>) =>
      h.request('DELETE', `${A}/account`, body, { token: student.access_token });
    const bare = await del({ confirm: student.email });
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({ detail: ACCOUNT_MESSAGES.passwordRequired });
    const wrong = await del({ confirm: student.email, password: 'Wrong-Guess-1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ detail: ACCOUNT_MESSAGES.wrongPassword });
    expect((await h.get(`${A}/me`, { token: student.access_token })).status).toBe(200);
    expect((await del(deleteConfirmation(student))).status).toBe(200);
  });

  it('an account without a password needs a sign-in within the last 5 minutes', async () => {
    const student = await h.user('Pat');
    h.advanceClock(6 * 60_000);
    try {
      const stale = await h.request(
        'DELETE',
        `${A}/account`,
        { confirm: student.email },
        { token: student.token },
      );
      expect(stale.status).toBe(403);
      expect(stale.body).toEqual({ detail: ACCOUNT_MESSAGES.signInAgain });
    } finally {
      h.resetClock();
    }
    const fresh = await h.request(
      'DELETE',
      `${A}/account`,
      { confirm: student.email },
      { token: student.token },
    );
    expect(fresh.status).toBe(200);
  });

  it('a Google account confirms with its display name', async () => {
    const user = await h.user(`Kim ${randomUUID().slice(0, 4)}`);
    await h.sql(sql`update users set is_google = true, password_hash = null where id = ${user.id}`);
    const api = (confirm: string) =>
      h.request('DELETE', `${A}/account`, { confirm }, { token: user.token });
    expect((await api(user.email)).body).toEqual({ detail: ACCOUNT_MESSAGES.confirmName });
    const name = (await h.as(user).get(`${A}/me`)).body.user.display_name as string;
    // Eleven minutes after signing in (the token still valid), the name is not enough: a fresh
    // Google sign-in is.
    h.advanceClock(11 * 60_000);
    try {
      const stale = await api(name);
      expect(stale.status).toBe(403);
      expect(stale.body).toEqual({ detail: ACCOUNT_MESSAGES.googleSignInAgain });
      expect(await rowsOf(user.id)).not.toEqual({});
    } finally {
      h.resetClock();
    }
    expect((await api(name)).status).toBe(200);
    expect(await rowsOf(user.id)).toEqual({});
  });

  it('a wallet account confirms with a signature over a fresh nonce, used once', async () => {
    const wallet = Wallet.createRandom();
    const nonce = async () =>
      (await h.request('POST', `${A}/web3/nonce`, { wallet_address: wallet.address })).body
        .message as string;
    const signIn = await nonce();
    const session = await h.request('POST', `${A}/web3/authenticate`, {
      wallet_address: wallet.address,
      message: signIn,
      signature: await wallet.signMessage(signIn),
    });
    expect(session.status).toBe(200);
    const token = session.body.access_token as string;
    const userId = session.body.user.id as string;
    const del = (body: unknown) => h.request('DELETE', `${A}/account`, body, { token });

    expect((await del({ confirm: wallet.address })).body).toEqual({
      detail: ACCOUNT_MESSAGES.signatureRequired,
    });
    const message = await nonce();
    const stranger = Wallet.createRandom();
    expect(
      (
        await del({
          confirm: wallet.address,
          message,
          signature: await stranger.signMessage(message),
        })
      ).body,
    ).toEqual({ detail: ACCOUNT_MESSAGES.invalidSignature });
    // The sign-in message was used up already: it does not confirm.
    expect(
      (
        await del({
          confirm: wallet.address,
          message: signIn,
          signature: await wallet.signMessage(signIn),
        })
      ).body,
    ).toEqual({ detail: ACCOUNT_MESSAGES.invalidSignature });
    const ok = await del({
      confirm: wallet.address,
      message,
      signature: await wallet.signMessage(message),
    });
    expect(ok.status).toBe(200);
    expect(await rowsOf(userId)).toEqual({});
    expect((await h.as(token).get(`${A}/me`)).status).toBe(401);
  });

  it('publishes both routes in the OpenAPI document', async () => {
    const doc = (await h.request('GET', '/api/v1/openapi.json')).body;
    expect(doc.paths['/api/v1/auth/export'].get).toBeDefined();
    expect(doc.paths['/api/v1/auth/account'].delete.requestBody).toBeDefined();
  });
});
