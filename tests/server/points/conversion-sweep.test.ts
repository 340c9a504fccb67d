/**
 * Finding #13: a conversion interrupted between its two transactions (points taken, still `pending`)
 * is refunded by the sweep exactly once, however many sweeps race (on PostgreSQL they really run at
 * once), and a young pending conversion is left to finish.
 */
import { randomUUID } from 'node:crypto';

import { and, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { conversions, pointsLedger } from '../../../server/db/schema';
import { STALE_CONVERSION_MS, sweepStaleConversions } from '../../../server/points/sweep';
import type { TestUser } from '../harness';
import { describeServer, useTestServer } from '../harness';

const h = useTestServer();
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

  it('a conversion the sweep refunded stays failed when its second transaction comes late', async () => {
    // The sweep claims a conversion between its two transactions (a process stalled past the
    // threshold, then resumed): a trigger on the conversion's debit does what that sweep does
    // (marks it failed, gives the points back) before the first transaction commits.
    const user = await h.user();
    await h.grant(user.id, 400);
    const name = `sweep_between_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await h.sql(
      sql.raw(`
      create function ${name}() returns trigger language plpgsql as $$
      begin
        if new.user_id = '${user.id}' and new.amount < 0 then
          update conversions set status = 'failed' where id = substring(new.award_key from 12)::uuid;
          insert into points_ledger (user_id, amount, type, category, description, award_key)
            values (new.user_id, -new.amount, 'earned', 'conversion', 'Refund', new.award_key || ':refund');
        end if;
        return new;
      end $$`),
    );
    await h.sql(
      sql.raw(
        `create trigger ${name} after insert on points_ledger for each row execute function ${name}()`,
      ),
    );
    try {
      const converted = await h.as(user).post(`${T}/convert-points-to-finu`, { points: 300 });
      expect(converted.status).toBe(201);
      // Settling found it no longer pending: no tokens on top of the refund.
      expect(converted.body.transaction).toMatchObject({ status: 'failed', points: 300 });
    } finally {
      await h.sql(sql.raw(`drop trigger if exists ${name} on points_ledger`));
      await h.sql(sql.raw(`drop function if exists ${name}()`));
    }
    expect((await h.as(user).get(`${T}/finu-balance`)).body).toEqual({ points: 400, tokens: 0 });
    expect(await ledgerSum(user.id)).toBe(400);
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
