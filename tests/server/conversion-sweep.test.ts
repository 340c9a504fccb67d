/**
 * Finding #13: a conversion interrupted between its two transactions (points taken, still `pending`)
 * is refunded by the sweep exactly once, however many sweeps race (on PostgreSQL they really run at
 * once), and a young pending conversion is left to finish.
 */
import { and, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { conversions, pointsLedger } from '../../server/db/schema';
import { STALE_CONVERSION_MS, sweepStaleConversions } from '../../server/points/sweep';
import type { TestUser } from './harness';
import { describeServer, useServer } from './harness';

const h = useServer();
const T = '/api/v1/web3-tokens';

/** What the first transaction of a conversion leaves behind when the process dies right after it. */
async function interruptedConversion(user: TestUser, points: number, ageMs: number) {
  const at = new Date(h.now().getTime() - ageMs);
  const [row] = await h.database.db
    .insert(conversions)
    .values({
      userId: user.id,
      points,
      tokens: points / 10,
      status: 'pending',
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  await h.database.db.insert(pointsLedger).values({
    userId: user.id,
    amount: -points,
    type: 'converted',
    category: 'conversion',
    description: `Converted ${points} points`,
    awardKey: `conversion:${row!.id}`,
    createdAt: at,
  });
  return row!.id;
}

const deps = () => ({ db: h.database.db, now: h.now, logger: h.logger });

async function ledgerSum(userId: string) {
  const [row] = await h.database.db
    .select({ sum: sql<string>`coalesce(sum(${pointsLedger.amount}), 0)` })
    .from(pointsLedger)
    .where(eq(pointsLedger.userId, userId));
  return Number(row!.sum);
}

describeServer('the sweep of interrupted conversions', () => {
  it('refunds a stale pending conversion exactly once, even when sweeps race', async () => {
    const user = await h.user();
    await h.grant(user.id, 300);
    const id = await interruptedConversion(user, 200, STALE_CONVERSION_MS + 60_000);
    expect(await ledgerSum(user.id)).toBe(100);
    expect((await h.as(user).get(`${T}/finu-balance`)).body).toEqual({ points: 100, tokens: 0 });

    const refunded = await Promise.all(
      Array.from({ length: 6 }, () => sweepStaleConversions(deps())),
    );
    expect(refunded.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await sweepStaleConversions(deps())).toBe(0);

    expect(await ledgerSum(user.id)).toBe(300);
    expect((await h.as(user).get(`${T}/finu-balance`)).body).toEqual({ points: 300, tokens: 0 });
    const refunds = await h.database.db
      .select()
      .from(pointsLedger)
      .where(
        and(eq(pointsLedger.userId, user.id), eq(pointsLedger.awardKey, `conversion:${id}:refund`)),
      );
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 200, type: 'earned', category: 'conversion' });
    const reply = await h.as(user).get(`${T}/transaction/${id}`);
    expect(reply.body.transaction).toMatchObject({ status: 'failed', points: 200 });
  });

  it('leaves a conversion younger than the threshold (it may still be finishing)', async () => {
    const user = await h.user();
    await h.grant(user.id, 200);
    const id = await interruptedConversion(user, 100, 10_000);
    expect(await sweepStaleConversions(deps())).toBe(0);
    expect(await ledgerSum(user.id)).toBe(100);
    const [row] = await h.database.db.select().from(conversions).where(eq(conversions.id, id));
    expect(row!.status).toBe('pending');
  });

  it('does not touch finished conversions', async () => {
    const user = await h.user();
    await h.grant(user.id, 250);
    const converted = await h.as(user).post(`${T}/convert-points-to-finu`, { points: 150 });
    expect(converted.status).toBe(201);
    h.advanceClock(STALE_CONVERSION_MS * 3);
    try {
      await sweepStaleConversions(deps());
    } finally {
      h.resetClock();
    }
    expect((await h.as(user).get(`${T}/finu-balance`)).body).toEqual({ points: 100, tokens: 15 });
  });
});
