/**
 * The check of an HS256 JWT, synchronous, on node:crypto's HMAC.
 *
 * Why not jose's `jwtVerify`: it verifies through WebCrypto (`crypto.subtle.verify`, asynchronous, its
 * arguments normalised by Node on every call), about 0.7 ms of the one thread a token when a whole
 * class signs in and sends at once (`npm run bench:class`). A SHA-256 HMAC over a few hundred bytes
 * is a few microseconds. Signing stays on jose (tokens.ts).
 *
 * The checks are those jose 6 made with the options we gave it (algorithms ['HS256'], issuer,
 * audience, requiredClaims exp/iat/sub, clockTolerance), read from its `jws_verify` and
 * `jwt_claims_set`, in the same order, so that 'expired' is said exactly where jose threw JWTExpired.
 * Two narrowings, for headers our tokens never carry: any `crit` header is refused (jose let
 * `crit: ["b64"], b64: true` through), and so is a `b64` other than true; and every part must be
 * canonical base64url, where jose's decoder also took padding and stray trailing bits.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface ExpectedClaims {
  issuer: string;
  audience: string;
  clockToleranceSec: number;
}

/** A payload whose signature, header and claims have been checked. */
export interface VerifiedPayload extends Record<string, unknown> {
  exp: number;
  nbf?: number;
}

export type JwtResult =
  { ok: true; payload: VerifiedPayload } | { ok: false; reason: 'expired' | 'invalid' };

const INVALID = { ok: false, reason: 'invalid' } as const;
const EXPIRED = { ok: false, reason: 'expired' } as const;

export function verifyHs256Jwt(
  token: string,
  secret: Uint8Array,
  expected: ExpectedClaims,
  now: Date,
): JwtResult {
  const parts = compactParts(token);
  if (!parts) return INVALID;
  const [headerBytes, payloadBytes, signature] = parts;
  const header = jsonObject(headerBytes);
  if (!header || !headerAllowed(header)) return INVALID;
  const signingInput = token.slice(0, token.lastIndexOf('.'));
  if (!signatureMatches(signingInput, signature, secret)) return INVALID;
  const payload = jsonObject(payloadBytes);
  if (!payload) return INVALID;
  const refusal = claimsRefusal(payload, expected, Math.floor(now.getTime() / 1000));
  return refusal ?? { ok: true, payload: payload as VerifiedPayload };
}

/** The bytes of exactly three parts (`header.payload.signature`), each canonical base64url. */
function compactParts(token: string): [Buffer, Buffer, Buffer] | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const decoded = parts.map(base64url);
  return decoded.every((part) => part !== undefined)
    ? (decoded as [Buffer, Buffer, Buffer])
    : undefined;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The bytes of a base64url string written the one way it encodes to: no padding, no other
 * character, no set bits after the last byte. (Buffer's decoder skips what it does not know.)
 */
function base64url(part: string): Buffer | undefined {
  if (!BASE64URL.test(part)) return undefined;
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : undefined;
}

/** jose's `strictDecoder`: a JSON text that is not valid UTF-8 is refused, not repaired. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A part that holds a top-level JSON object (not an array, string, number or null). */
function jsonObject(bytes: Buffer): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** HS256 and nothing else: not `none`, no other algorithm, no critical extension, no raw payload. */
function headerAllowed(header: Record<string, unknown>): boolean {
  return (
    header.alg === 'HS256' &&
    !Object.hasOwn(header, 'crit') &&
    (!Object.hasOwn(header, 'b64') || header.b64 === true)
  );
}

/** The HMAC-SHA-256 of the signing input, compared in constant time. */
function signatureMatches(signingInput: string, signature: Buffer, secret: Uint8Array): boolean {
  const expected = createHmac('sha256', secret).update(signingInput, 'latin1').digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected);
}

/**
 * Why the claims refuse the token at `now` (seconds), or undefined when they hold: jose's
 * `validateClaimsSet` for our options, check for check and in its order.
 */
function claimsRefusal(
  claims: Record<string, unknown>,
  expected: ExpectedClaims,
  now: number,
): typeof INVALID | typeof EXPIRED | undefined {
  const required = ['iss', 'aud', 'sub', 'iat', 'exp'];
  if (!required.every((claim) => Object.hasOwn(claims, claim))) return INVALID;
  if (claims.iss !== expected.issuer || !audienceIncludes(claims.aud, expected.audience)) {
    return INVALID;
  }
  if (typeof claims.iat !== 'number') return INVALID;
  if (Object.hasOwn(claims, 'nbf') && typeof claims.nbf !== 'number') return INVALID;
  if (typeof claims.exp !== 'number') return INVALID;
  return timesRefusal(
    claims.nbf as number | undefined,
    claims.exp,
    now,
    expected.clockToleranceSec,
  );
}

/**
 * Why a token's times refuse it at `now` (seconds), `tolerance` either way: not valid yet
 * ('invalid', as jose), or expired; undefined while they hold.
 */
export function timesRefusal(
  nbf: number | undefined,
  exp: number,
  now: number,
  tolerance: number,
): typeof INVALID | typeof EXPIRED | undefined {
  if (nbf !== undefined && nbf > now + tolerance) return INVALID;
  if (exp <= now - tolerance) return EXPIRED;
  return undefined;
}

/** `aud` is our audience, or an array that holds it. */
function audienceIncludes(aud: unknown, audience: string): boolean {
  return aud === audience || (Array.isArray(aud) && aud.includes(audience));
}
