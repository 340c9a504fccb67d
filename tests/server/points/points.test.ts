/** `/api/v1/web3-tokens` over real HTTP: the rule, balances, conversions (also concurrent), activity. */
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';

import { pointsLedger } from '../../../server/db/schema';
import { POINTS_MESSAGES } from '../../../server/points/service';
import type { TestUser } from '../harness';
import { describeServer, isFastApiError, useTestServer } from '../harness';

const h = useTestServer();
const T = '/api/v1/web3-tokens';

describeServer('points and tokens', () => {
  let sam: TestUser;
  beforeAll(async () => {
    sam = await h.user();
  });

  it('asks for a token on every route', async () => {
    for (const path of [
      '/conversion-info',
      '/finu-balance',
      '/activity',
      '/distribution-balances',
    ]) {
      const reply = await h.request('GET', T + path);
      expect(reply.status, path).toBe(401);
      expect(isFastApiError(reply.body)).toBe(true);
    }
    expect((await h.request('POST', `${T}/convert-points-to-finu`, { points: 100 })).status).toBe(
      401,
    );
  });

  it('publishes the conversion rule', async () => {
    const reply = await h.as(sam).get(`${T}/conversion-info`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      points_per_token: 10,
      min_points: 100,
      step: 10,
      token_name: 'AYAH',
    });
  });

  it('holds the onboarding award back from conversion until a first learning activity (issue 22 #6)', async () => {
    const user = await h.user();
    const api = h.as(user);
    expect((await api.post('/api/v1/auth/onboarding/complete')).status).toBe(200);
    // 50 onboarding points and 60 given back by a failed conversion: 110, of which 50 are held.
    await h.database.db.insert(pointsLedger).values({
      userId: user.id,
      amount: 60,
      type: 'earned',
      category: 'conversion',
      description: 'Refund of a failed conversion of 60 points',
    });
    expect((await api.get(`${T}/finu-balance`)).body).toEqual({ points: 110, tokens: 0 });
    const held = await api.post(`${T}/convert-points-to-finu`, { points: 100 });
    expect(held.status).toBe(400);
    expect(held.body).toEqual({ detail: POINTS_MESSAGES.onboardingHeld });
    expect((await api.get(`${T}/finu-balance`)).body).toEqual({ points: 110, tokens: 0 });
    // A first learning activity (here a chat award) makes the welcome points convertible.
    await h.database.db.insert(pointsLedger).values({
      userId: user.id,
      amount: 1,
      type: 'earned',
      category: 'chat',
      description: 'Asked the tutor',
    });
    const converted = await api.post(`${T}/convert-points-to-finu`, { points: 100 });
    expect(converted.status).toBe(201);
    expect((await api.get(`${T}/finu-balance`)).body).toEqual({ points: 11, tokens: 10 });
  });

  it('converts points into tokens and records it everywhere', async () => {
    const user = await h.user();
    const api = h.as(user);
    expect((await api.get(`${T}/finu-balance`)).body).toEqual({ points: 0, tokens: 0 });
    await h.grant(user.id, 250);

    const converted = await api.post(`${T}/convert-points-to-finu`, { points: 150 });
    expect(converted.status).toBe(201);
    const { transaction } = converted.body;
    expect(transaction).toMatchObject({ status: 'success', points: 150, tokens: 15 });
    expect(Date.parse(transaction.created_at)).not.toBeNaN();

    expect((await api.get(`${T}/finu-balance`)).body).toEqual({ points: 100, tokens: 15 });
    expect((await api.get(`${T}/transaction/${transaction.id}`)).body).toEqual({ transaction });
    expect((await api.get(`${T}/distribution-balances`)).body).toEqual({
      tokens_distributed: 15,
      points_converted: 150,
    });

    const activity = await api.get(`${T}/activity?limit=1&page=1`);
    expect(activity.status).toBe(200);
    expect(activity.body).toMatchObject({ total: 2, page: 1, limit: 1, hasMore: true });
    expect(activity.body.data[0]).toMatchObject({
      type: 'converted',
      amount: 150,
      pointsUsed: 150,
      tokensReceived: 15,
      category: 'conversion',
    });
    const older = await api.get(`${T}/activity?limit=1&page=2`);
    expect(older.body.data[0]).toMatchObject({
      type: 'earned',
      amount: 250,
      pointsUsed: null,
      tokensReceived: null,
    });
    expect(older.body.hasMore).toBe(false);
  });

  it('refuses amounts below the minimum, off the step or above the balance (400)', async () => {
    const user = await h.user();
    await h.grant(user.id, 200);
    const api = h.as(user);
    for (const points of [0, -10, 90, 105, 210, 1000]) {
      const reply = await api.post(`${T}/convert-points-to-finu`, { points });
      expect(reply.status, String(points)).toBe(400);
      expect(typeof reply.body.detail).toBe('string');
    }
    expect((await api.get(`${T}/finu-balance`)).body.points).toBe(200);
  });

  it('lists entries made in the same millisecond in the order they were made', async () => {
    const user = await h.user();
    h.freezeClock();
    try {
      for (const amount of [1, 2, 3, 4, 5, 6, 7, 8]) await h.grant(user.id, amount);
      const listed = await h.as(user).get(`${T}/activity?limit=8`);
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((a: { amount: number }) => a.amount)).toEqual([
        8, 7, 6, 5, 4, 3, 2, 1,
      ]);
    } finally {
      h.resetClock();
    }
  });

  it('refuses malformed bodies (422)', async () => {
    const api = h.as(sam);
    for (const body of [{}, { points: '100' }, { points: 100.5 }, { points: 100, extra: 1 }, []]) {
      const reply = await api.post(`${T}/convert-points-to-finu`, body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(isFastApiError(reply.body)).toBe(true);
    }
    const paging = await api.get(`${T}/activity?limit=0`);
    expect(paging.status).toBe(422);
  });

  it("never shows one user's transaction to another (404)", async () => {
    const owner = await h.user();
    await h.grant(owner.id, 100);
    const { transaction } = (await h.as(owner).post(`${T}/convert-points-to-finu`, { points: 100 }))
      .body;
    const stranger = await h.as(sam).get(`${T}/transaction/${transaction.id}`);
    expect(stranger.status).toBe(404);
    expect((await h.as(sam).get(`${T}/transaction/not-a-uuid`)).status).toBe(404);
    expect((await h.as(sam).get(`${T}/distribution-balances`)).body.points_converted).toBe(0);
  });

  it('never overdraws under many concurrent conversions', async () => {
    const user = await h.user();
    await h.grant(user.id, 1000);
    const api = h.as(user);
    const replies = await Promise.all(
      Array.from({ length: 40 }, () => api.post(`${T}/convert-points-to-finu`, { points: 100 })),
    );
    const ok = replies.filter((r) => r.status === 201);
    const refused = replies.filter((r) => r.status === 400);
    expect(ok.length).toBe(10);
    expect(refused.length).toBe(30);
    const balance = (await api.get(`${T}/finu-balance`)).body;
    expect(balance).toEqual({ points: 0, tokens: 100 });
    const [ledger] = await h.sql<{ sum: string; min: string }>(
      sql`select sum(amount)::text as sum from points_ledger where user_id = ${user.id}`,
    );
    expect(Number(ledger!.sum)).toBe(0);
  });

  it('marks a failed distribution failed and gives the points back', async () => {
    const user = await h.user();
    await h.grant(user.id, 990);
    const restore = await h.failDistribution(990);
    h.expectError(/^\[points\] conversion \S+ failed; giving the points back/);
    const reply = await h.as(user).post(`${T}/convert-points-to-finu`, { points: 990 });
    expect(reply.status).toBe(201);
    expect(reply.body.transaction).toMatchObject({ status: 'failed', points: 990, tokens: 99 });
    expect((await h.as(user).get(`${T}/finu-balance`)).body).toEqual({ points: 990, tokens: 0 });
    const activity = (await h.as(user).get(`${T}/activity`)).body.data;
    expect(activity.map((a: { type: string }) => a.type)).toEqual([
      'earned',
      'converted',
      'earned',
    ]);
    // Once the fault is lifted, the same conversion goes through.
    await restore();
    const again = await h.as(user).post(`${T}/convert-points-to-finu`, { points: 990 });
    expect(again.body.transaction).toMatchObject({ status: 'success', points: 990, tokens: 99 });
    expect((await h.as(user).get(`${T}/finu-balance`)).body).toEqual({ points: 0, tokens: 99 });
  });
});
