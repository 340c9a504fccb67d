/**
 * A student made straight in the database with a live session and an access token for it, as a
 * sign-in would leave them: for tests and benchmarks that need a signed-in caller without the sign-in.
 */
import { signAccessToken } from '../../server/auth/tokens';
import type { Database } from '../../server/db';
import { authSessions, users } from '../../server/db/schema';

type NewUser = typeof users.$inferInsert;

export interface SeededUser {
  id: string;
  email: string;
  token: string;
}

/**
 * Inserts `values` (verified now unless they say otherwise) and a session of `sessionDays`, and signs
 * an access token valid for `tokenSeconds` with `jwtSecret`, all as of `at`.
 */
export async function insertSignedInUser(
  database: Database,
  jwtSecret: Uint8Array,
  values: NewUser & { email: string },
  { at = new Date(), sessionDays = 1, tokenSeconds = 3600 } = {},
): Promise<SeededUser> {
  const [user] = await database.db
    .insert(users)
    .values({ emailVerifiedAt: at, ...values })
    .returning();
  const [session] = await database.db
    .insert(authSessions)
    .values({ userId: user!.id, expiresAt: new Date(at.getTime() + sessionDays * 86_400_000) })
    .returning();
  const token = await signAccessToken(
    { sub: user!.id, sid: session!.id, tv: user!.tokenVersion },
    jwtSecret,
    at,
    tokenSeconds,
  );
  return { id: user!.id, email: values.email, token };
}
