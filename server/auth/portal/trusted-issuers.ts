/**
 * `AYAH_TRUSTED_ISSUERS`: the school portals whose signed assertions `POST /auth/token-exchange` takes.
 * A JSON list of `{issuer, audience, jwks_url}` or `{issuer, audience, public_key}` (a PEM `PUBLIC KEY`
 * or a public JWK, as an object or its JSON text). Read and checked once at start: a mistake stops the
 * server with a sentence that names the entry and the field, never at a student's first sign-in.
 */
import type { JsonWebKey, KeyObject } from 'node:crypto';
import { createPublicKey } from 'node:crypto';

import { entryText, type Fail, failWith, parseEntries } from '../../config-entries';

/** The signature algorithms an assertion may use: asymmetric only, never HS* or none. */
export const ASSERTION_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
export type AssertionAlgorithm = (typeof ASSERTION_ALGORITHMS)[number];

export interface TrustedIssuer {
  /** The assertion's `iss`, compared exactly. */
  issuer: string;
  /** The `aud` the assertion must name (this Ayah server as the portal knows it). */
  audience: string;
  /** Where the issuer publishes its keys (fetched and cached by jose), or its one public key. */
  keys:
    { kind: 'jwks'; url: string } | { kind: 'key'; key: KeyObject; algorithm: AssertionAlgorithm };
}

const VAR = 'AYAH_TRUSTED_ISSUERS';
const FIELDS = new Set(['issuer', 'audience', 'jwks_url', 'public_key']);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const fail: Fail = failWith(VAR, 'a JSON list of {issuer, audience, jwks_url | public_key}');
const text = (entry: Record<string, unknown>, field: string, where: string) =>
  entryText(entry, field, where, fail);

/** https, or http on loopback (a portal on the same machine, and the tests). */
function jwksUrl(value: unknown, where: string): string {
  if (typeof value !== 'string') fail(`${where}: "jwks_url" must be a string`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(`${where}: "jwks_url" is not a URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname)))
    fail(`${where}: "jwks_url" must be https (http only on localhost)`);
  return url.toString();
}

/** The algorithm a key signs with: RSA (2048 bits or more) RS256, EC P-256 ES256, Ed25519 EdDSA. */
function algorithmOf(key: KeyObject, where: string): AssertionAlgorithm {
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'rsa':
      if ((details.modulusLength ?? 0) < 2048) fail(`${where}: an RSA key needs 2048 bits or more`);
      return 'RS256';
    case 'ec':
      if (details.namedCurve !== 'prime256v1') fail(`${where}: an EC key must be on P-256 (ES256)`);
      return 'ES256';
    case 'ed25519':
      return 'EdDSA';
    default:
      return fail(`${where}: keys of type ${key.asymmetricKeyType} are not accepted`);
  }
}

function publicKey(
  value: unknown,
  where: string,
): { key: KeyObject; algorithm: AssertionAlgorithm } {
  let jwk: unknown = value;
  if (typeof value === 'string' && value.trim().startsWith('{')) {
    try {
      jwk = JSON.parse(value);
    } catch {
      fail(`${where}: "public_key" is neither a PEM nor a JWK`);
    }
  }
  let key: KeyObject;
  try {
    if (typeof jwk === 'string') {
      if (/PRIVATE KEY/.test(jwk))
        fail(`${where}: "public_key" is a private key; give the public one`);
      key = createPublicKey(jwk);
    } else if (jwk && typeof jwk === 'object') {
      const fields = jwk as Record<string, unknown>;
      if ('d' in fields || fields.kty === 'oct')
        fail(`${where}: "public_key" must be a public JWK (no "d", no "oct")`);
      key = createPublicKey({ key: fields as JsonWebKey, format: 'jwk' });
    } else {
      return fail(`${where}: "public_key" must be a PEM string or a JWK`);
    }
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(VAR)) throw error;
    return fail(`${where}: "public_key" could not be read as a public key`);
  }
  return { key, algorithm: algorithmOf(key, where) };
}

/** Parses `AYAH_TRUSTED_ISSUERS`; unset or empty means no portal may exchange (every call 401). */
export function parseTrustedIssuers(value: string | undefined): TrustedIssuer[] {
  const seen = new Set<string>();
  return parseEntries(value, FIELDS, fail, (fields, where) => {
    const issuer = text(fields, 'issuer', where);
    const audience = text(fields, 'audience', where);
    if (seen.has(issuer)) fail(`${where} repeats the issuer ${issuer}`);
    seen.add(issuer);
    const hasJwks = fields.jwks_url !== undefined;
    const hasKey = fields.public_key !== undefined;
    if (hasJwks === hasKey) fail(`${where} needs exactly one of "jwks_url" and "public_key"`);
    const keys: TrustedIssuer['keys'] = hasJwks
      ? { kind: 'jwks', url: jwksUrl(fields.jwks_url, where) }
      : { kind: 'key', ...publicKey(fields.public_key, where) };
    return { issuer, audience, keys };
  });
}
