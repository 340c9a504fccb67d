/**
 * The points ledger: every change of a user's points is a row, the balance is their sum and never
 * goes below zero. Whoever changes a balance first locks the user's row (`lockUser`,
 * server/db/locks.ts), so concurrent conversions and awards of one user run one after another — the
 * same lock order everywhere: user → session/goal → ledger. Other domains reach it only through the
 * `PointsLedger` port (server/ports.ts) that `createPointsLedger` implements and server/app.ts hands in.
 */
import { and, eq, gte, like, sql } from 'drizzle-orm';

import type { Queryable } from '../db';
import { pointsLedger } from '../db/schema';
import type { Award, PointsLedger } from '../ports';

export async function pointsBalance(q: Queryable, userId: string): Promise<number> {
  const [row] = await q
    .select({ sum: sql<string>`coalesce(sum(${pointsLedger.amount}), 0)` })
    .from(pointsLedger)
    .where(eq(pointsLedger.userId, userId));
  return Number(row?.sum ?? 0);
}

/**
 * Points held back from conversion (issue 22 #6, account farming): the onboarding award becomes
 * convertible only once the student has earned points from a real learning activity (a chat or
 * goal award: any earning other than onboarding and conversion refunds). Until then it counts in
 * the balance but not towards a conversion.
 */
export async function heldPoints(q: Queryable, userId: string): Promise<number> {
  const [row] = await q
    .select({
      onboarding: sql<string>`coalesce(sum(${pointsLedger.amount}) filter (where ${pointsLedger.category} = 'onboarding'), 0)`,
      learning: sql<string>`count(*) filter (where ${pointsLedger.type} = 'earned' and ${pointsLedger.amount} > 0 and ${pointsLedger.category} not in ('onboarding', 'conversion'))`,
    })
    .from(pointsLedger)
    .where(eq(pointsLedger.userId, userId));
  if (Number(row?.learning ?? 0) > 0) return 0;
  return Math.max(0, Number(row?.onboarding ?? 0));
}

/** Writes a one-time award; false when the key was already used. The caller holds the user lock. */
async function awardOnce(q: Queryable, userId: string, award: Award): Promise<boolean> {
  const rows = await q
    .insert(pointsLedger)
    .values({
      userId,
      amount: award.amount,
      type: 'earned',
      category: award.category,
      description: award.description,
      awardKey: award.key,
      createdAt: award.at,
    })
    .onConflictDoNothing()
    .returning({ id: pointsLedger.id });
  return rows.length > 0;
}

/** The net points of every ledger row whose key starts with `prefix` (an award and its take-backs). */
async function netByKeyPrefix(q: Queryable, userId: string, prefix: string) {
  const [row] = await q
    .select({
      sum: sql<string>`coalesce(sum(${pointsLedger.amount}), 0)`,
      count: sql<string>`count(*)`,
    })
    .from(pointsLedger)
    .where(and(eq(pointsLedger.userId, userId), like(pointsLedger.awardKey, `${prefix}%`)));
  return { net: Number(row?.sum ?? 0), rows: Number(row?.count ?? 0) };
}

/** How many awards of `category` the user was given since `since` (taken back or not). */
async function awardsSince(
  q: Queryable,
  userId: string,
  category: string,
  since: Date,
): Promise<number> {
  const [row] = await q
    .select({ n: sql<string>`count(*)` })
    .from(pointsLedger)
    .where(
      and(
        eq(pointsLedger.userId, userId),
        eq(pointsLedger.category, category),
        eq(pointsLedger.type, 'earned'),
        gte(pointsLedger.createdAt, since),
      ),
    );
  return Number(row?.n ?? 0);
}

/**
 * Takes up to `amount` points back (never below a zero balance); answers what was taken. The caller
 * holds the user lock.
 */
async function takeBack(q: Queryable, userId: string, entry: Award): Promise<number> {
  const balance = await pointsBalance(q, userId);
  const taken = Math.min(entry.amount, Math.max(0, balance));
  if (taken <= 0) return 0;
  await q.insert(pointsLedger).values({
    userId,
    amount: -taken,
    type: 'deducted',
    category: entry.category,
    description: entry.description,
    awardKey: entry.key,
    createdAt: entry.at,
  });
  return taken;
}

export function createPointsLedger(): PointsLedger {
  return { award: awardOnce, takeBack, awardsSince, netByKeyPrefix };
}
