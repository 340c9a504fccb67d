/**
 * The auth domain's account rules besides signing in: the profile a student edits and the onboarding
 * that ends with its one-time award. Signing in is split by concern beside it: sessions.ts (sessions
 * and their tokens), credentials.ts (email and password accounts), one-time-tokens.ts (the mail
 * links' tokens); Google, wallets and portals in their own files. server/app.ts builds each.
 */
import { POINTS } from 'ayah-coach/rules';
import { eq } from 'drizzle-orm';

import type { Queryable } from '../db';
import { transaction } from '../db';
import { lockUser } from '../db/locks';
import type { User } from '../db/schema';
import { users } from '../db/schema';
import type { Deps } from '../deps';
import { unauthorized } from '../http/errors';
import type { PointsLedger } from '../ports';
import { AUTH_MESSAGES } from './messages';

export function createProfileService({ db, now }: Pick<Deps, 'db' | 'now'>, ledger: PointsLedger) {
  async function findById(q: Queryable, id: string): Promise<User> {
    const [user] = await q.select().from(users).where(eq(users.id, id)).limit(1);
    if (!user) throw unauthorized(AUTH_MESSAGES.invalidToken);
    return user;
  }

  return {
    async updateProfile(
      userId: string,
      input: { display_name?: string; bio?: string; interests?: string[] },
    ): Promise<User> {
      const changes: Partial<User> = {};
      if (input.display_name !== undefined) changes.displayName = input.display_name;
      if (input.bio !== undefined) changes.bio = input.bio;
      if (input.interests !== undefined) changes.interests = input.interests;
      if (Object.keys(changes).length === 0) return findById(db, userId);
      const [user] = await db
        .update(users)
        .set({ ...changes, updatedAt: now() })
        .where(eq(users.id, userId))
        .returning();
      return user!;
    },

    /** Idempotent: the flag is set and the onboarding points are awarded once, however often it is called. */
    async completeOnboarding(userId: string, interests?: string[]): Promise<User> {
      return transaction(db, async (tx) => {
        // The ledger's rule: whoever changes a balance holds the user lock first.
        await lockUser(tx, userId);
        const [user] = await tx
          .update(users)
          .set({ onboardingCompleted: true, updatedAt: now(), ...(interests && { interests }) })
          .where(eq(users.id, userId))
          .returning();
        await ledger.award(tx, userId, {
          key: 'onboarding',
          amount: POINTS.onboardingAward,
          category: 'onboarding',
          description: 'Completed onboarding',
          at: now(),
        });
        return user!;
      });
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
