/** `/api/v1/goal` over real HTTP: weekly goals, the spec's rules, progress, streak, celebrations, award. */
import { beforeAll, expect, it } from 'vitest';

import { weekStart } from '../../../server/goals/service';
import type { TestUser } from '../harness';
import { describeServer, isFastApiError, useTestServer } from '../harness';

const h = useTestServer();
const G = '/api/v1/goal';
const DAY = 86_400_000;

const goal = (subject = 'math', goal_type = 'problems_solved', target_value = 10) => ({
  subject,
  goal_type,
  target_value,
});

describeServer('goals', () => {
  let sam: TestUser;
  beforeAll(async () => {
    sam = await h.user();
  });

  it('starts weeks on Monday 00:00 UTC', () => {
    expect(weekStart(new Date('2026-03-04T12:00:00Z')).toISOString()).toBe(
      '2026-03-02T00:00:00.000Z',
    );
    expect(weekStart(new Date('2026-03-08T23:59:59Z')).toISOString()).toBe(
      '2026-03-02T00:00:00.000Z',
    );
    expect(weekStart(new Date('2026-03-09T00:00:00Z')).toISOString()).toBe(
      '2026-03-09T00:00:00.000Z',
    );
  });

  it('creates, lists, updates and deletes a goal', async () => {
    const user = await h.user();
    const api = h.as(user);
    const created = await api.post(G, goal('science', 'study_time', 60));
    expect(created.status).toBe(201);
    const g = created.body.goal;
    expect(g).toMatchObject({
      subject: 'science',
      goal_type: 'study_time',
      target_value: 60,
      total_progress: 0,
      latest_progress: null,
    });
    expect((await api.get(G)).body.goals.map((x: { _id: string }) => x._id)).toEqual([g._id]);
    expect((await api.get(`${G}/all`)).body.goals).toHaveLength(1);

    const put = await api.put(`${G}/${g._id}`, { target_value: 45 });
    expect(put.status).toBe(200);
    expect(put.body.goal.target_value).toBe(45);
    const patch = await api.patch(`${G}/${g._id}`, { target_value: 30 });
    expect(patch.body.goal.target_value).toBe(30);

    const removed = await api.delete(`${G}/${g._id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ message: 'Goal deleted successfully' });
    expect((await api.get(G)).body.goals).toEqual([]);
    expect((await api.delete(`${G}/${g._id}`)).status).toBe(404);
  });

  it('refuses a fourth distinct subject with the exact message', async () => {
    const api = h.as(await h.user());
    for (const subject of ['math', 'science', 'history'])
      expect((await api.post(G, goal(subject))).status).toBe(201);
    expect((await api.post(G, goal('math', 'topics_learned', 3))).status).toBe(201);
    const fourth = await api.post(G, goal('english'));
    expect(fourth.status).toBe(400);
    expect(fourth.body).toEqual({
      detail: 'You can only create a maximum of 3 courses at a time.',
    });
  });

  it('validates targets and bodies (422)', async () => {
    const api = h.as(sam);
    for (const body of [
      goal('math', 'problems_solved', 0),
      goal('math', 'problems_solved', 1000),
      goal('math', 'problems_solved', 2.5),
      goal('art'),
      goal('math', 'pages_read'),
      { ...goal(), extra: true },
      { subject: 'math' },
    ]) {
      const reply = await api.post(G, body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(isFastApiError(reply.body)).toBe(true);
    }
    expect((await api.post(G, goal('math', 'problems_solved', 1))).status).toBe(201);
    expect((await api.post(G, goal('math', 'problems_solved', 999))).status).toBe(201);
  });

  it('logs progress, caps at 100 %, locks edits over 50 % and celebrates each milestone once', async () => {
    const user = await h.user();
    const api = h.as(user);
    const id = (await api.post(G, goal('math', 'problems_solved', 10))).body.goal._id;

    const p1 = await api.post(`${G}/${id}/progress`, { value: 3, topic: 'Fractions' });
    expect(p1.status).toBe(201);
    expect(p1.body.goal.total_progress).toBe(30);
    expect(p1.body.goal.latest_progress).toMatchObject({ value: 3 });
    expect(await api.get(`${G}/celebrations`)).toMatchObject({
      body: [{ goal_id: id, milestone: 25 }],
    });
    expect((await api.get(`${G}/celebrations`)).body).toEqual([]);

    await api.post(`${G}/${id}/progress`, { value: 2 });
    expect((await api.put(`${G}/${id}`, { target_value: 12 })).status).toBe(200); // 5/10 = 50 %: editable
    await api.put(`${G}/${id}`, { target_value: 10 });
    await api.post(`${G}/${id}/progress`, { value: 1 });
    const locked = await api.put(`${G}/${id}`, { target_value: 20 });
    expect(locked.status).toBe(400);
    expect(locked.body).toEqual({ detail: 'Goals with more than 50% progress cannot be edited.' });

    const done = await api.post(`${G}/${id}/progress`, { value: 50, minutes: 30 });
    expect(done.body.goal.total_progress).toBe(100);
    const celebrations = (await api.get(`${G}/celebrations`)).body;
    expect(celebrations.map((c: { milestone: number }) => c.milestone)).toEqual([50, 75, 100]);
    expect((await api.get(`${G}/completed-in-week`)).body).toEqual({ count: 1 });

    // The +50 goal award, once.
    await api.post(`${G}/${id}/progress`, { value: 1 });
    const balance = await api.get('/api/v1/web3-tokens/finu-balance');
    expect(balance.body.points).toBe(50);
  });

  it('answers history by day, activities and the streak', async () => {
    const user = await h.user();
    const api = h.as(user);
    const id = (await api.post(G, goal('english', 'study_time', 100))).body.goal._id;
    await api.post(`${G}/${id}/progress`, { value: 20, topic: 'Poetry' });
    await api.post(`${G}/${id}/progress`, { value: 10, topic: 'Essays', minutes: 15 });

    const history = await api.get(`${G}/${id}/progress`);
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject({ total: 1, page: 1, limit: 4, hasMore: false });
    expect(history.body.data[0]).toMatchObject({ total_value: 30, total_time: 35 });
    expect(history.body.data[0].date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const activities = await api.get(`${G}/activities`);
    expect(activities.body).toMatchObject({ total: 2, limit: 5, hasMore: false });
    expect(activities.body.data[0]).toMatchObject({
      goal: { subject: 'english', goal_type: 'study_time', target_value: 100 },
      topic: 'Essays',
      value: 10,
    });
    expect((await api.get(`${G}/streak`)).body).toEqual({ streak: 1 });
    expect((await h.as(await h.user()).get(`${G}/streak`)).body).toEqual({ streak: 0 });
  });

  it('counts the streak over consecutive days and forgets a broken one', async () => {
    const user = await h.user();
    const api = h.as(user);
    const id = (await api.post(G, goal('history', 'topics_learned', 999))).body.goal._id;
    // Three days in a row (the clock moves forward a day at a time), then a gap of two days.
    try {
      for (let i = 0; i < 3; i++) {
        await api.post(`${G}/${id}/progress`, { value: 1 });
        h.advanceClock(DAY);
      }
      expect((await api.get(`${G}/streak`)).body.streak).toBe(3); // today open, yesterday counts
      h.advanceClock(DAY);
      expect((await api.get(`${G}/streak`)).body.streak).toBe(0);
    } finally {
      h.resetClock();
    }
  });

  it("keeps users apart: another user's goal is 404 everywhere", async () => {
    const owner = h.as(await h.user());
    const id = (await owner.post(G, goal())).body.goal._id;
    const api = h.as(sam);
    expect((await api.put(`${G}/${id}`, { target_value: 5 })).status).toBe(404);
    expect((await api.delete(`${G}/${id}`)).status).toBe(404);
    expect((await api.post(`${G}/${id}/progress`, { value: 1 })).status).toBe(404);
    expect((await api.get(`${G}/${id}/progress`)).status).toBe(404);
    expect((await api.get(`${G}/not-a-uuid/progress`)).status).toBe(404);
    expect((await owner.get(G)).body.goals[0].total_progress).toBe(0);
  });

  it('validates progress bodies and asks for a token', async () => {
    const api = h.as(sam);
    const id = (await api.post(G, goal('math', 'problems_solved', 5))).body.goal._id;
    for (const body of [
      {},
      { value: 0 },
      { value: 1.5 },
      { value: 1, minutes: -1 },
      { value: 1, topic: '' },
    ]) {
      expect((await api.post(`${G}/${id}/progress`, body)).status, JSON.stringify(body)).toBe(422);
    }
    expect((await h.request('GET', G)).status).toBe(401);
    expect((await h.request('GET', `${G}/streak`)).status).toBe(401);
  });
});
