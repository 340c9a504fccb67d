/**
 * JWTs built by hand: any header and payload (an object, or the exact text), signed with an
 * HMAC-SHA-256 over `header.payload` whatever the header claims, so that a test can change one thing
 * of a token jose would refuse to produce (an `alg` that lies, a `crit` header, a payload that is not
 * an object) and see that very thing refused.
 */
import { createHmac } from 'node:crypto';

export function base64url(text: string | Uint8Array): string {
  return Buffer.from(text).toString('base64url');
}

export function handSignedJwt(
  header: Record<string, unknown> | string | Uint8Array,
  payload: Record<string, unknown> | string | Uint8Array,
  secret: Uint8Array,
): string {
  const part = (value: typeof header) =>
    base64url(
      typeof value === 'string' || value instanceof Uint8Array ? value : JSON.stringify(value),
    );
  const signingInput = `${part(header)}.${part(payload)}`;
  return `${signingInput}.${hs256(signingInput, secret)}`;
}

/** The base64url HMAC-SHA-256 of `signingInput`: to sign parts written by hand (padded, say). */
export function hs256(signingInput: string, secret: Uint8Array): string {
  return createHmac('sha256', secret).update(signingInput).digest('base64url');
}
