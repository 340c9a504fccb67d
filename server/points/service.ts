/**
 * Points and reward tokens (DECISIONS.md: 10 points = 1 token, at least 100 points, in steps of 10).
 *
 * A conversion is two transactions. The first locks the user, checks the balance, writes the
 * conversion `pending` and takes the points off (one ledger row, key `conversion:<id>`): since every
 * conversion of a user waits for that lock, no number of concurrent requests can overdraw. The second
 * distributes the tokens and marks the conversion `success`; if it fails, the conversion is marked
 * `failed` and the points are given back (key `conversion:<id>:refund`).
 */
import { POINTS } from 'ayah-coach/rules';
import { and, asc, desc, eq, sql } from 'drizzle-orm';

import { transaction } from '../db';
import { lockUser } from '../db/locks';
import type { ConversionStatus } from '../db/schema';
import { conversions, pointsLedger } from '../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../http/errors';
import type { Page } from '../http/paging';
import { offsetOf, paged } from '../http/paging';
import { heldPoints, pointsBalance } from './ledger';

export const POINTS_MESSAGES = {
  belowMinimum: `Convert at least ${POINTS.minConversion} points`,
  offStep: `Convert points in steps of ${POINTS.conversionStep}`,
  insufficient: 'Not enough points for this conversion',
  onboardingHeld:
    'Your welcome points can be converted after your first learning activity (a tutor chat or goal progress)',
  notFound: 'Transaction not found',
} as const;

const conversionKey = (id: string) => `conversion:${id}`;

/** A date of the account export (auth's GET /export). */
const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function createPointsService({ db, now, logger }: Deps) {
  function publicTransaction(row: typeof conversions.$inferSelect) {
    return {
      id: row.id,
      status: row.status,
      points: row.points,
      tokens: row.tokens,
      created_at: row.createdAt.toISOString(),
    };
  }

  /** Settles a pending conversion; if the sweep (sweep.ts) refunded it meanwhile, answers that. */
  async function setStatus(id: string, status: ConversionStatus) {
    const [row] = await db
      .update(conversions)
      .set({ status, updatedAt: now() })
      .where(and(eq(conversions.id, id), eq(conversions.status, 'pending')))
      .returning();
    if (row) return row;
    const [current] = await db.select().from(conversions).where(eq(conversions.id, id)).limit(1);
    return current!;
  }

  return {
    async balance(userId: string) {
      const points = await pointsBalance(db, userId);
      const [row] = await db
        .select({ tokens: sql<string>`coalesce(sum(${conversions.tokens}), 0)` })
        .from(conversions)
        .where(and(eq(conversions.userId, userId), eq(conversions.status, 'success')));
      return { points, tokens: Number(row?.tokens ?? 0) };
    },

    async convert(userId: string, points: number) {
      if (points < POINTS.minConversion) throw new AppError(400, POINTS_MESSAGES.belowMinimum);
      if (points % POINTS.conversionStep !== 0) throw new AppError(400, POINTS_MESSAGES.offStep);
      const tokens = Math.floor(points / POINTS.pointsPerToken);
      const at = now();
      const pending = await transaction(db, async (tx) => {
        await lockUser(tx, userId);
        const balance = await pointsBalance(tx, userId);
        if (balance < points) throw new AppError(400, POINTS_MESSAGES.insufficient);
        if (balance - (await heldPoints(tx, userId)) < points)
          throw new AppError(400, POINTS_MESSAGES.onboardingHeld);
        const [row] = await tx
          .insert(conversions)
          .values({ userId, points, tokens, status: 'pending', createdAt: at, updatedAt: at })
          .returning();
        await tx.insert(pointsLedger).values({
          userId,
          amount: -points,
          type: 'converted',
          category: 'conversion',
          description: `Converted ${points} points to ${tokens} ${POINTS.tokenName}`,
          awardKey: conversionKey(row!.id),
          createdAt: at,
        });
        return row!;
      });

      // The reference server distributes tokens by recording them; a chain-backed deployment would
      // send them here. Either way a failure gives the points back.
      try {
        return publicTransaction(await setStatus(pending.id, 'success'));
      } catch (error) {
        logger.error(`[points] conversion ${pending.id} failed; giving the points back:`, error);
        return publicTransaction(
          await transaction(db, async (tx) => {
            await lockUser(tx, userId);
            await tx
              .insert(pointsLedger)
              .values({
                userId,
                amount: points,
                type: 'earned',
                category: 'conversion',
                description: `Refund of a failed conversion of ${points} points`,
                awardKey: `${conversionKey(pending.id)}:refund`,
                createdAt: now(),
              })
              .onConflictDoNothing();
            const [row] = await tx
              .update(conversions)
              .set({ status: 'failed', updatedAt: now() })
              .where(eq(conversions.id, pending.id))
              .returning();
            return row!;
          }),
        );
      }
    },

    async transaction(userId: string, id: string) {
      const [row] = await db
        .select()
        .from(conversions)
        .where(and(eq(conversions.id, id), eq(conversions.userId, userId)))
        .limit(1);
      if (!row) throw new AppError(404, POINTS_MESSAGES.notFound);
      return publicTransaction(row);
    },

    async activity(userId: string, page: Page) {
      const [rows, [count]] = await Promise.all([
        db
          .select({
            ledger: pointsLedger,
            tokens: conversions.tokens,
          })
          .from(pointsLedger)
          .leftJoin(
            conversions,
            sql`${pointsLedger.type} = 'converted' and ${pointsLedger.awardKey} = 'conversion:' || ${conversions.id}::text`,
          )
          .where(eq(pointsLedger.userId, userId))
          .orderBy(desc(pointsLedger.createdAt), desc(pointsLedger.seq))
          .limit(page.limit)
          .offset(offsetOf(page)),
        db
          .select({ n: sql<string>`count(*)` })
          .from(pointsLedger)
          .where(eq(pointsLedger.userId, userId)),
      ]);
      const data = rows.map(({ ledger, tokens }) => {
        const converted = ledger.type === 'converted';
        return {
          type: ledger.type,
          amount: Math.abs(ledger.amount),
          pointsUsed: converted ? Math.abs(ledger.amount) : null,
          tokensReceived: converted
            ? (tokens ?? Math.floor(-ledger.amount / POINTS.pointsPerToken))
            : null,
          description: ledger.description,
          timestamp: ledger.createdAt.toISOString(),
          category: ledger.category,
        };
      });
      return paged('data', data, Number(count?.n ?? 0), page);
    },

    async distribution(userId: string) {
      const [row] = await db
        .select({
          tokens: sql<string>`coalesce(sum(${conversions.tokens}), 0)`,
          points: sql<string>`coalesce(sum(${conversions.points}), 0)`,
        })
        .from(conversions)
        .where(and(eq(conversions.userId, userId), eq(conversions.status, 'success')));
      return {
        tokens_distributed: Number(row?.tokens ?? 0),
        points_converted: Number(row?.points ?? 0),
      };
    },

    /** The user's ledger and conversions, for the account export. */
    async exportRows(userId: string) {
      const ledger = await db
        .select()
        .from(pointsLedger)
        .where(eq(pointsLedger.userId, userId))
        .orderBy(asc(pointsLedger.createdAt), asc(pointsLedger.seq));
      const converted = await db
        .select()
        .from(conversions)
        .where(eq(conversions.userId, userId))
        .orderBy(asc(conversions.createdAt));
      return {
        points_ledger: ledger.map((row) => ({
          amount: row.amount,
          type: row.type,
          category: row.category,
          description: row.description,
          created_at: iso(row.createdAt),
        })),
        conversions: converted.map((row) => ({
          id: row.id,
          points: row.points,
          tokens: row.tokens,
          status: row.status,
          created_at: iso(row.createdAt),
        })),
      };
    },
  };
}

export type PointsService = ReturnType<typeof createPointsService>;
