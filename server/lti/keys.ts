/** The tool's keys at work: the JWKS it publishes, and JWTs it signs (deep links, client assertions). */
import { randomUUID } from 'node:crypto';

import type { JWK, JWTPayload } from 'jose';
import { exportJWK, SignJWT } from 'jose';

import type { LtiToolKey } from './config';

/** `GET /lti/jwks`: every key, so a platform still checks what the previous key signed. */
export async function toolJwks(keys: LtiToolKey[]): Promise<{ keys: JWK[] }> {
  return {
    keys: await Promise.all(
      keys.map(async (key) => ({
        ...(await exportJWK(key.publicKey)),
        kid: key.kid,
        alg: 'RS256',
        use: 'sig',
      })),
    ),
  };
}

/** A JWT signed RS256 by the current key, living `lifetimeSec`, with a fresh `jti`. */
export function signAsTool(
  keys: LtiToolKey[],
  payload: JWTPayload,
  now: Date,
  lifetimeSec = 300,
): Promise<string> {
  const key = keys[0]!;
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ jti: randomUUID(), ...payload })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + lifetimeSec)
    .sign(key.privateKey);
}
