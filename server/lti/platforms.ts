/**
 * The registered platforms: AYAH_LTI_PLATFORMS from the config, and those that registered themselves
 * (Dynamic Registration) from the database. Each platform's JWKS is cached by jose, fetched again on
 * an unknown `kid` at most once every 30 s.
 */
import { eq } from 'drizzle-orm';
import { createRemoteJWKSet } from 'jose';

import type { Db } from '../db';
import { ltiPlatforms } from '../db/schema';
import type { LtiPlatform } from './config';
import { defaultFrameOrigins, platformId } from './config';

const JWKS_TIMEOUT_MS = 5000;
const JWKS_COOLDOWN_MS = 30_000;
const JWKS_MAX_AGE_MS = 10 * 60_000;

export type PlatformRegistry = ReturnType<typeof createPlatformRegistry>;

type Row = typeof ltiPlatforms.$inferSelect;

function fromRow(row: Row): LtiPlatform {
  return {
    id: row.id,
    issuer: row.issuer,
    clientId: row.clientId,
    deploymentIds: row.deploymentIds,
    authLoginUrl: row.authLoginUrl,
    authTokenUrl: row.authTokenUrl,
    jwksUrl: row.jwksUrl,
    authAudience: row.authAudience ?? row.authTokenUrl,
    frameOrigins: defaultFrameOrigins(row.issuer, row.authLoginUrl),
  };
}

export function createPlatformRegistry(db: Db, configured: LtiPlatform[]) {
  const byId = new Map(configured.map((p) => [p.id, p]));
  const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  async function stored(where: ReturnType<typeof eq>): Promise<LtiPlatform | null> {
    const [row] = await db.select().from(ltiPlatforms).where(where).limit(1);
    return row ? fromRow(row) : null;
  }

  return {
    async byId(id: string): Promise<LtiPlatform | null> {
      return byId.get(id) ?? (await stored(eq(ltiPlatforms.id, id)));
    },

    /** The platform of `(issuer, client_id)`; with no client id, the issuer's only platform. */
    async find(issuer: string, clientId: string | undefined): Promise<LtiPlatform | null> {
      if (clientId) {
        const id = platformId(issuer, clientId);
        return byId.get(id) ?? (await stored(eq(ltiPlatforms.id, id)));
      }
      const env = configured.filter((p) => p.issuer === issuer);
      const rows = await db
        .select()
        .from(ltiPlatforms)
        .where(eq(ltiPlatforms.issuer, issuer))
        .limit(2);
      const all = [...env, ...rows.map(fromRow)];
      return all.length === 1 ? all[0]! : null;
    },

    keysOf(platform: LtiPlatform) {
      let set = keySets.get(platform.id);
      if (!set) {
        set = createRemoteJWKSet(new URL(platform.jwksUrl), {
          timeoutDuration: JWKS_TIMEOUT_MS,
          cooldownDuration: JWKS_COOLDOWN_MS,
          cacheMaxAge: JWKS_MAX_AGE_MS,
          headers: { 'User-Agent': 'Ayah-LTI/1.0' },
        });
        keySets.set(platform.id, set);
      }
      return set;
    },

    /** Stores a platform that registered itself; the same `(issuer, client_id)` again replaces it. */
    async register(
      platform: Omit<LtiPlatform, 'id' | 'frameOrigins' | 'authAudience'> & {
        authAudience: string | null;
      },
    ) {
      const id = platformId(platform.issuer, platform.clientId);
      const values = {
        id,
        issuer: platform.issuer,
        clientId: platform.clientId,
        deploymentIds: platform.deploymentIds,
        authLoginUrl: platform.authLoginUrl,
        authTokenUrl: platform.authTokenUrl,
        jwksUrl: platform.jwksUrl,
        authAudience: platform.authAudience,
      };
      await db
        .insert(ltiPlatforms)
        .values(values)
        .onConflictDoUpdate({ target: ltiPlatforms.id, set: values });
      keySets.delete(id);
      return id;
    },
  };
}
