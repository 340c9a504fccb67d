/**
 * Stale conversions: a conversion is two transactions (service.ts), and a crash or a lost database
 * connection between them would leave it `pending` forever, its points taken and no tokens given. The
 * sweep refunds every conversion still pending after `STALE_CONVERSION_MS` (5 minutes: the second
 * transaction normally follows the first within milliseconds, so five minutes is only ever a crash).
 *
 * Refund, not settle: the reference server records tokens in the same row it would mark `success`, so
 * a pending conversion has given nothing, and giving the points back is the outcome the student can
 * see and retry. It runs at start and every minute (main.ts). Each conversion is claimed with
 * `UPDATE … WHERE status = 'pending'` under the user's lock, and its refund row has a unique key, so
 * any number of sweeps on any number of servers refund it exactly once.
 */
import { and, eq, lt } from 'drizzle-orm';

import { transaction } from '../db';
import { lockUser } from '../db/locks';
import { conversions, pointsLedger } from '../db/schema';
import type { Deps } from '../deps';

export const STALE_CONVERSION_MS = 5 * 60_000;
export const SWEEP_INTERVAL_MS = 60_000;

/** Refunds stale pending conversions; answers how many this call refunded. */
export async function sweepStaleConversions(
  { db, now, logger }: Pick<Deps, 'db' | 'now' | 'logger'>,
  staleAfterMs = STALE_CONVERSION_MS,
): Promise<number> {
  const cutoff = new Date(now().getTime() - staleAfterMs);
  const stale = await db
    .select({ id: conversions.id, userId: conversions.userId })
    .from(conversions)
    .where(and(eq(conversions.status, 'pending'), lt(conversions.updatedAt, cutoff)))
    .limit(500);
  let refunded = 0;
  for (const { id, userId } of stale) {
    const done = await transaction(db, async (tx) => {
      await lockUser(tx, userId);
      // Claimed under the lock: a sweep that comes second finds it no longer pending.
      const [row] = await tx
        .update(conversions)
        .set({ status: 'failed', updatedAt: now() })
        .where(and(eq(conversions.id, id), eq(conversions.status, 'pending')))
        .returning();
      if (!row) return false;
      const inserted = await tx
        .insert(pointsLedger)
        .values({
          userId,
          amount: row.points,
          type: 'earned',
          category: 'conversion',
          description: `Refund of a failed conversion of ${row.points} points`,
          awardKey: `conversion:${id}:refund`,
          createdAt: now(),
        })
        .onConflictDoNothing()
        .returning({ id: pointsLedger.id });
      return inserted.length > 0;
    });
    if (done) refunded++;
  }
  if (refunded > 0) logger.warn(`[points] refunded ${refunded} interrupted conversion(s)`);
  return refunded;
}

/** Sweeps now and every `SWEEP_INTERVAL_MS`; answers how to stop (and wait for a sweep under way). */
export function startConversionSweep(deps: Pick<Deps, 'db' | 'now' | 'logger'>) {
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    running = sweepStaleConversions(deps).catch((error: unknown) =>
      deps.logger.error('[points] sweep failed:', error),
    );
  };
  sweep();
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
