/**
 * Points cannot be farmed through goals (issue 15, finding 2): a deleted goal's award comes back off
 * the balance, a student earns the goal award at most GOAL_AWARDS_PER_WEEK times a week, goal writes
 * are rate-limited, and random sequences of goal and conversion calls over HTTP keep the ledger
 * invariant: points earned ≤ what the rules allow, the balance never negative, balance = ledger sum.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { expect, it } from 'vitest';

import { GOAL_AWARDS_PER_WEEK } from '../../../server/goals/service';
import { POINTS } from '../../../src/lib/limits';
import type { TestUser } from '../harness';
import { describeServer, useTestServer } from '../harness';

const WRITES_PER_MINUTE = 40;
const h = useTestServer({
  limits: { goalWrites: { limit: WRITES_PER_MINUTE, windowMs: 60_000 } },
});
const G = '/api/v1/goal';
const T = '/api/v1/web3-tokens';
const AWARD = POINTS.goalCompletedAward;

async function ledger(user: TestUser) {
  return h.sql<{ amount: number; type: string; category: string; award_key: string | null }>(
    sql`select amount, type, category, award_key from points_ledger where user_id = ${user.id} order by created_at`,
  );
}

async function balance(user: TestUser): Promise<number> {
  const reply = await h.as(user).get(`${T}/finu-balance`);
  expect(reply.status).toBe(200);
  return reply.body.points;
}

/** Creates a goal of target 1 and completes it; answers the goal's id. */
async function completeOne(user: TestUser, subject = 'math'): Promise<string> {
  const api = h.as(user);
  const created = await api.post(G, { subject, goal_type: 'problems_solved', target_value: 1 });
  expect(created.status).toBe(201);
  const id = created.body.goal._id;
  expect((await api.post(`${G}/${id}/progress`, { value: 1 })).status).toBe(201);
  return id;
}

describeServer('goal awards cannot be farmed', () => {
  it('deleting a completed goal takes its award back', async () => {
    const user = await h.user();
    const id = await completeOne(user);
    expect(await balance(user)).toBe(AWARD);
    const removed = await h.as(user).delete(`${G}/${id}`);
    expect(removed.status).toBe(200);
    expect(await balance(user)).toBe(0);
    const rows = await ledger(user);
    expect(rows.map((r) => [r.type, r.amount])).toEqual([
      ['earned', AWARD],
      ['deducted', -AWARD],
    ]);
  });

  it(`create, complete, delete, repeat: at most ${GOAL_AWARDS_PER_WEEK} awards a week, even when the points were converted first`, async () => {
    const user = await h.user();
    await h.grant(user.id, 60);
    for (let round = 0; round < 6; round++) {
      const id = await completeOne(user);
      // Convert what there is, so that the take-back on delete finds nothing to take.
      const points = Math.floor((await balance(user)) / 10) * 10;
      if (points >= POINTS.minConversion) {
        expect((await h.as(user).post(`${T}/convert-points-to-finu`, { points })).status).toBe(201);
      }
      expect((await h.as(user).delete(`${G}/${id}`)).status).toBe(200);
    }
    const earned = (await ledger(user))
      .filter((r) => r.category === 'goal' && r.type === 'earned')
      .reduce((sum, r) => sum + r.amount, 0);
    expect(earned).toBe(GOAL_AWARDS_PER_WEEK * AWARD);
  });

  it('a new week brings new awards', async () => {
    const user = await h.user();
    for (let i = 0; i < GOAL_AWARDS_PER_WEEK + 1; i++) await completeOne(user, 'science');
    expect(await balance(user)).toBe(GOAL_AWARDS_PER_WEEK * AWARD);
    h.advanceClock(7 * 86_400_000);
    try {
      await completeOne(user, 'science');
      expect(await balance(user)).toBe((GOAL_AWARDS_PER_WEEK + 1) * AWARD);
    } finally {
      h.resetClock();
    }
  });

  it('rate-limits goal writes per student (429 with Retry-After), not reads', async () => {
    const user = await h.user();
    const api = h.as(user);
    const created = await api.post(G, {
      subject: 'math',
      goal_type: 'problems_solved',
      target_value: 9,
    });
    const id = created.body.goal._id;
    const statuses: number[] = [];
    for (let i = 1; i < WRITES_PER_MINUTE + 3; i++) {
      statuses.push((await api.put(`${G}/${id}`, { target_value: 9 })).status);
    }
    expect(statuses.slice(0, WRITES_PER_MINUTE - 1).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(WRITES_PER_MINUTE - 1)).toEqual([429, 429, 429]);
    const limited = await api.post(`${G}/${id}/progress`, { value: 1 });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(typeof limited.body.detail).toBe('string');
    expect((await api.get(G)).status).toBe(200);
    // Another student is not slowed down.
    expect(
      (
        await h
          .as(await h.user())
          .post(G, { subject: 'math', goal_type: 'problems_solved', target_value: 3 })
      ).status,
    ).toBe(201);
    h.advanceClock(61_000);
    try {
      expect((await api.put(`${G}/${id}`, { target_value: 9 })).status).toBe(200);
    } finally {
      h.resetClock();
    }
  });
});

type Op =
  | { kind: 'create'; subject: number; target: number }
  | { kind: 'update'; goal: number; target: number }
  | { kind: 'delete'; goal: number }
  | { kind: 'progress'; goal: number; value: number }
  | { kind: 'convert'; points: number };

const SUBJECTS = ['math', 'science', 'history', 'english'] as const;

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      subject: fc.nat({ max: 3 }),
      target: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      goal: fc.nat({ max: 5 }),
      target: fc.integer({ min: 1, max: 6 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('delete' as const), goal: fc.nat({ max: 5 }) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('progress' as const),
      goal: fc.nat({ max: 5 }),
      value: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('convert' as const),
      points: fc.integer({ min: 10, max: 16 }).map((n) => n * 10),
    }),
  },
);

describeServer('the ledger invariant under random goal and conversion calls', () => {
  it('earned ≤ the rules allow, the balance never negative, balance = ledger sum', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 30 }), async (ops) => {
        const user = await h.user();
        const api = h.as(user);
        await h.grant(user.id, 100);
        const ids: string[] = [];
        // Mostly the newest goals, so that sequences complete (and delete) many of them.
        const pick = (n: number) =>
          ids.length
            ? ids[Math.max(0, ids.length - 1 - (n % 2))]!
            : '00000000-0000-4000-8000-000000000000';
        for (const o of ops) {
          let reply;
          if (o.kind === 'create') {
            reply = await api.post(G, {
              subject: SUBJECTS[o.subject],
              goal_type: 'problems_solved',
              target_value: o.target,
            });
            if (reply.status === 201) ids.push(reply.body.goal._id);
          } else if (o.kind === 'update') {
            reply = await api.put(`${G}/${pick(o.goal)}`, { target_value: o.target });
          } else if (o.kind === 'delete') {
            const id = pick(o.goal);
            reply = await api.delete(`${G}/${id}`);
            if (reply.status === 200) ids.splice(ids.indexOf(id), 1);
          } else if (o.kind === 'progress') {
            reply = await api.post(`${G}/${pick(o.goal)}/progress`, { value: o.value });
          } else {
            reply = await api.post(`${T}/convert-points-to-finu`, { points: o.points });
          }
          // Every answer is a rule's answer, never a failure of the server.
          expect(reply.status, JSON.stringify(o)).toBeLessThan(500);
          const points = await balance(user);
          expect(points).toBeGreaterThanOrEqual(0);
        }
        const rows = await ledger(user);
        const sum = rows.reduce((s, r) => s + r.amount, 0);
        expect(await balance(user)).toBe(sum);
        const goalEarned = rows
          .filter((r) => r.category === 'goal' && r.type === 'earned')
          .reduce((s, r) => s + r.amount, 0);
        expect(goalEarned).toBeLessThanOrEqual(GOAL_AWARDS_PER_WEEK * AWARD);
        // Everything earned: the grant and the goal awards (refunds only return converted points).
        const converted = rows
          .filter((r) => r.type === 'converted')
          .reduce((s, r) => s - r.amount, 0);
        expect(converted).toBeLessThanOrEqual(100 + goalEarned);
      }),
      { numRuns: 10 },
    );
  }, 300_000);
});
