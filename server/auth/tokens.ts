/**
 * Access tokens are short-lived JWTs (HS256 only, issuer, audience and expiry checked). Refresh,
 * verification and reset tokens are 256 random bits, handed out once and stored only as SHA-256.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';

import { SignJWT } from 'jose';

import { timesRefusal, verifyHs256Jwt } from './jwt-hs256';

export const JWT_ISSUER = 'ayah-coach';
export const JWT_AUDIENCE = 'ayah-coach:api';

export interface AccessClaims {
  /** The user's id. */
  sub: string;
  /** The sign-in session the token belongs to. */
  sid: string;
  /** The user's token version when it was issued. */
  tv: number;
}

export async function signAccessToken(
  claims: AccessClaims,
  secret: Uint8Array,
  now: Date,
  ttlSec: number,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sid: claims.sid, tv: claims.tv })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSec)
    .setJti(randomUUID())
    .sign(secret);
}

export type AccessTokenResult =
  { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

const CLOCK_TOLERANCE_SEC = 5;
const EXPECTED = {
  issuer: JWT_ISSUER,
  audience: JWT_AUDIENCE,
  clockToleranceSec: CLOCK_TOLERANCE_SEC,
};

/**
 * Tokens whose signature and claims have been checked, per secret, with the times that bound their
 * life. A client sends one access token with every request for as long as it lives: checking its
 * HMAC once is enough, while its times are checked afresh on every use. Nothing about the session is
 * kept here: whether it is revoked, expired or its user's token version moved on is the session
 * cache's (session-cache.ts) or the database's to say (SessionService.authenticate). Bounded: the oldest
 * entry goes first.
 */
interface Verified {
  claims: AccessClaims;
  exp: number;
  nbf: number | undefined;
}
const verifiedTokens = new WeakMap<Uint8Array, Map<string, Verified>>();
const VERIFIED_TOKENS_MAX = 10_000;

/** The claims of a token verified before, if its times still hold at `now` (the same test). */
function alreadyVerified(token: string, secret: Uint8Array, now: Date): AccessClaims | undefined {
  const seen = verifiedTokens.get(secret)?.get(token);
  if (!seen) return undefined;
  const at = Math.floor(now.getTime() / 1000);
  // Out of its time, the token is checked afresh, which says why it is refused.
  return timesRefusal(seen.nbf, seen.exp, at, CLOCK_TOLERANCE_SEC) ? undefined : seen.claims;
}

function rememberVerified(token: string, secret: Uint8Array, entry: Verified): void {
  let seen = verifiedTokens.get(secret);
  if (!seen) verifiedTokens.set(secret, (seen = new Map()));
  if (seen.size >= VERIFIED_TOKENS_MAX) seen.delete(seen.keys().next().value!);
  seen.set(token, entry);
}

export async function verifyAccessToken(
  token: string,
  secret: Uint8Array,
  now: Date,
): Promise<AccessTokenResult> {
  const claims = alreadyVerified(token, secret, now);
  if (claims) return { ok: true, claims };
  const verified = verifyHs256Jwt(token, secret, EXPECTED, now);
  if (!verified.ok) return verified;
  const { payload } = verified;
  const { sub, sid, tv } = payload;
  if (typeof sub !== 'string' || typeof sid !== 'string' || !Number.isInteger(tv)) {
    return { ok: false, reason: 'invalid' };
  }
  if (!UUID.test(sub) || !UUID.test(sid)) return { ok: false, reason: 'invalid' };
  const accepted = { sub, sid, tv: tv as number };
  rememberVerified(token, secret, { claims: accepted, exp: payload.exp, nbf: payload.nbf });
  return { ok: true, claims: accepted };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** 256 random bits, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The refresh token that rotation issues for `token`: derived from it under the server's secret (256
 * bits, as unguessable as a random one without the secret), so that the server can hand the same
 * successor again to a second tab renewing at the same moment (REFRESH_GRACE_MS) without keeping any
 * token in clear.
 */
export function successorToken(secret: Uint8Array, token: string): string {
  return createHmac('sha256', secret).update(`refresh-successor\n${token}`).digest('base64url');
}

/** What the database keeps of a token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
