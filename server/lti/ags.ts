/**
 * Grades (LTI AGS 2.0). A launched student's weekly goal progress goes to the resource link's line
 * item as a score. Scores wait in an outbox table (the newest per grade link), so posting never blocks
 * or fails the student's request, is retried with backoff, and survives a restart: `drain` is kicked
 * after each change and `startScoreOutbox` (main.ts) sweeps what is due every half minute.
 */
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';

import type { Db } from '../db';
import { ltiGradeLinks, ltiScoreOutbox } from '../db/schema';
import type { Logger } from '../http/errors';
import type { LtiPlatform } from './config';
import type { PlatformRegistry } from './platforms';
import { SCOPES } from './schemas';
import type { TokenSource } from './token';
import { PlatformCallError } from './token';

const SCORE_TYPE = 'application/vnd.ims.lis.v1.score+json';
const LINE_ITEM_TYPE = 'application/vnd.ims.lis.v2.lineitem+json';
const LINE_ITEMS_TYPE = 'application/vnd.ims.lis.v2.lineitemcontainer+json';
/** A claimed row is someone's for this long; a crash mid-post leaves it due again after. */
const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 12;
const BATCH = 20;

/** The week's goals of a student, as the goals domain reads them (a port the root hands in). */
export interface GoalsReader {
  weekProgress(userId: string): Promise<{ average: number; complete: boolean; goals: number }>;
}

/** 1 s, 2 s, 4 s … at most an hour. */
export const backoffMs = (attempts: number) => Math.min(3_600_000, 1000 * 2 ** (attempts - 1));

/** `…/lineitems/7?x=1` → `…/lineitems/7/scores?x=1` (AGS: the scores service sits under the item). */
export function scoresUrl(lineItem: string): string {
  const url = new URL(lineItem);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/scores`;
  return url.toString();
}

interface Deps {
  db: Db;
  now: () => Date;
  logger: Logger;
  platforms: PlatformRegistry;
  tokens: TokenSource;
  goals: GoalsReader | null;
}

type GradeLink = typeof ltiGradeLinks.$inferSelect;

export function createGrades({ db, now, logger, platforms, tokens, goals }: Deps) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let draining: Promise<void> | null = null;
  let stopped = false;

  /** The link's line item: the claim's, else found (or made) under `lineitems` for the link. */
  async function lineItemOf(platform: LtiPlatform, link: GradeLink): Promise<string> {
    if (link.lineItem) return link.lineItem;
    if (!link.lineItems) throw new PlatformCallError('the AGS claim names no line item');
    const list = new URL(link.lineItems);
    list.searchParams.set('resource_link_id', link.resourceLinkId);
    const read = await tokens.call(platform, [SCOPES.lineItem], list.toString(), {
      accept: LINE_ITEMS_TYPE,
    });
    if (!read.ok) throw new PlatformCallError(`line items answered ${read.status}`, read.status);
    const items = (await read.json()) as { id?: string; resourceLinkId?: string }[];
    let id = Array.isArray(items)
      ? items.find((item) => item.resourceLinkId === link.resourceLinkId)?.id
      : undefined;
    if (!id) {
      const made = await tokens.call(platform, [SCOPES.lineItem], link.lineItems, {
        method: 'POST',
        contentType: LINE_ITEM_TYPE,
        accept: LINE_ITEM_TYPE,
        body: JSON.stringify({
          scoreMaximum: 100,
          label: 'Weekly goals',
          resourceLinkId: link.resourceLinkId,
          tag: 'ayah-weekly-goals',
        }),
      });
      if (!made.ok)
        throw new PlatformCallError(`line item create answered ${made.status}`, made.status);
      id = ((await made.json()) as { id?: string }).id;
    }
    if (!id) throw new PlatformCallError('the platform named no line item id');
    await db.update(ltiGradeLinks).set({ lineItem: id }).where(eq(ltiGradeLinks.id, link.id));
    return id;
  }

  async function post(link: GradeLink, score: Record<string, unknown>) {
    const platform = await platforms.byId(link.platformId);
    if (!platform) throw new PlatformCallError('the platform is no longer registered');
    const lineItem = await lineItemOf(platform, link);
    const response = await tokens.call(platform, [SCOPES.score], scoresUrl(lineItem), {
      method: 'POST',
      contentType: SCORE_TYPE,
      body: JSON.stringify(score),
    });
    if (!response.ok)
      throw new PlatformCallError(`scores answered ${response.status}`, response.status);
  }

  async function drainOnce(): Promise<number> {
    const at = now();
    const due = db
      .select({ id: ltiScoreOutbox.gradeLinkId })
      .from(ltiScoreOutbox)
      .where(lte(ltiScoreOutbox.nextAttemptAt, at))
      .orderBy(asc(ltiScoreOutbox.nextAttemptAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(ltiScoreOutbox)
      .set({
        nextAttemptAt: new Date(at.getTime() + LEASE_MS),
        attempts: sql`${ltiScoreOutbox.attempts} + 1`,
      })
      .where(inArray(ltiScoreOutbox.gradeLinkId, due))
      .returning();
    for (const row of claimed) {
      const [link] = await db
        .select()
        .from(ltiGradeLinks)
        .where(eq(ltiGradeLinks.id, row.gradeLinkId));
      if (!link) continue;
      // The outbox row of this very score (its link, its timestamp).
      const thisScore = and(
        eq(ltiScoreOutbox.gradeLinkId, row.gradeLinkId),
        sql`${ltiScoreOutbox.score}->>'timestamp' = ${String(row.score.timestamp)}`,
      );
      try {
        await post(link, row.score);
        // Delivered; a newer score that came meanwhile stays for the next round.
        await db.delete(ltiScoreOutbox).where(thisScore);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (row.attempts >= MAX_ATTEMPTS) {
          logger.warn(`[lti] gave up posting a score after ${row.attempts} attempts: ${reason}`);
          await db.delete(ltiScoreOutbox).where(thisScore);
          continue;
        }
        logger.warn(`[lti] posting a score failed (attempt ${row.attempts}): ${reason}`);
        await db
          .update(ltiScoreOutbox)
          .set({
            nextAttemptAt: new Date(now().getTime() + backoffMs(row.attempts)),
            lastError: reason.slice(0, 500),
          })
          .where(thisScore);
      }
    }
    return claimed.length;
  }

  /** Posts what is due, then sets a timer for the next retry of this process. */
  function drain(): Promise<void> {
    if (stopped) return Promise.resolve();
    draining ??= (async () => {
      try {
        while ((await drainOnce()) === BATCH);
        const [next] = await db
          .select({ at: ltiScoreOutbox.nextAttemptAt })
          .from(ltiScoreOutbox)
          .orderBy(asc(ltiScoreOutbox.nextAttemptAt))
          .limit(1);
        if (timer) clearTimeout(timer);
        timer = null;
        if (next && !stopped) {
          timer = setTimeout(() => void drain(), Math.max(50, next.at.getTime() - now().getTime()));
          timer.unref?.();
        }
      } catch (error) {
        logger.error('[lti] score outbox', error);
      } finally {
        draining = null;
      }
    })();
    return draining;
  }

  return {
    drain,

    /**
     * Stops the retries: no timer left set, no drain started after this, the one under way finished.
     * The app calls it as it shuts down, before the database closes (a retry's timer would otherwise
     * fire on a closed pool).
     */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await draining;
    },

    /**
     * After a student's goal progress changed: the week's average to every line item they were
     * launched from. Called without waiting (never blocks the student); errors are logged only.
     */
    async onGoalProgress(userId: string): Promise<void> {
      if (!goals) return;
      const links = await db.select().from(ltiGradeLinks).where(eq(ltiGradeLinks.userId, userId));
      if (links.length === 0) return;
      const week = await goals.weekProgress(userId);
      const at = now();
      for (const link of links) {
        const score = {
          userId: link.subject,
          scoreGiven: Math.round(Math.min(100, Math.max(0, week.average)) * 100) / 100,
          scoreMaximum: 100,
          activityProgress: week.complete
            ? 'Completed'
            : week.goals > 0
              ? 'InProgress'
              : 'Initialized',
          gradingProgress: 'FullyGraded',
          timestamp: at.toISOString(),
        };
        await db
          .insert(ltiScoreOutbox)
          .values({ gradeLinkId: link.id, score, attempts: 0, nextAttemptAt: at })
          .onConflictDoUpdate({
            target: ltiScoreOutbox.gradeLinkId,
            set: { score, attempts: 0, nextAttemptAt: at, lastError: null },
          });
      }
      void drain();
    },
  };
}
