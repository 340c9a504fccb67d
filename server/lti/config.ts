/**
 * LTI 1.3 settings, read and checked once at start (as `AYAH_TRUSTED_ISSUERS` is): a mistake stops the
 * server with a sentence naming the entry and the field, never at a student's first launch.
 *
 * - `AYAH_LTI_PLATFORMS`: a JSON list of `{issuer, client_id, deployment_ids, auth_login_url,
 *   auth_token_url, jwks_url}` (optional `auth_audience`, the token request's audience where the
 *   platform names its own, and `frame_origins`, the origins whose pages frame the tool). Keyed on
 *   `(issuer, client_id)`: every hosted Canvas shares one issuer.
 * - `AYAH_LTI_PRIVATE_KEY`: one or more PEM RSA private keys; the first signs, all are published
 *   (rotation). Unset: one 2048-bit key is generated once into `<data dir>/lti-private-key.pem`.
 * - `AYAH_LTI_DYNAMIC_REGISTRATION=1`: platforms may register themselves (README, the trade-off).
 */
import type { KeyObject } from 'node:crypto';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { entryText, type Fail, failWith, parseEntries } from '../config-entries';

export interface LtiPlatform {
  /** A short stable name for `(issuer, client_id)`, used in pages' addresses and rows. */
  id: string;
  issuer: string;
  clientId: string;
  deploymentIds: string[];
  authLoginUrl: string;
  authTokenUrl: string;
  jwksUrl: string;
  /** `aud` of the client assertion: `auth_audience` where given, else the token URL. */
  authAudience: string;
  /** Origins allowed to frame launched pages. */
  frameOrigins: string[];
}

export interface LtiToolKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface LtiConfig {
  platforms: LtiPlatform[];
  /** The first signs; every one is published at the JWKS. */
  keys: LtiToolKey[];
  dynamicRegistration: boolean;
}

const VAR = 'AYAH_LTI_PLATFORMS';
const REQUIRED = [
  'issuer',
  'client_id',
  'deployment_ids',
  'auth_login_url',
  'auth_token_url',
  'jwks_url',
] as const;
const FIELDS = new Set<string>([...REQUIRED, 'auth_audience', 'frame_origins']);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const fail: Fail = failWith(
  VAR,
  'a JSON list of {issuer, client_id, deployment_ids, auth_login_url, auth_token_url, jwks_url}',
);

/** The platform's id: stable across restarts and replicas, the same for env and database rows. */
export function platformId(issuer: string, clientId: string): string {
  return createHash('sha256').update(`${issuer}\n${clientId}`).digest('base64url').slice(0, 16);
}

/** https, or http on loopback (a platform on the same machine, and the tests); else null. */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname)))
      return url.toString();
  } catch {
    // not a URL
  }
  return null;
}

/** The origins that frame a platform's launches by default: its issuer's and its login page's. */
export function defaultFrameOrigins(issuer: string, authLoginUrl: string): string[] {
  const origins = new Set<string>();
  for (const value of [issuer, authLoginUrl]) {
    try {
      const url = new URL(value);
      if (url.protocol === 'https:' || url.protocol === 'http:') origins.add(url.origin);
    } catch {
      // an issuer need not be a URL
    }
  }
  return [...origins];
}

const text = (entry: Record<string, unknown>, field: string, where: string) =>
  entryText(entry, field, where, fail);

function link(entry: Record<string, unknown>, field: string, where: string): string {
  const value = text(entry, field, where);
  const url = safeUrl(value);
  if (!url) fail(`${where}: "${field}" must be an https URL (http only on localhost)`);
  return url;
}

export function parseLtiPlatforms(value: string | undefined): LtiPlatform[] {
  const seen = new Set<string>();
  return parseEntries(value, FIELDS, fail, (fields, where) => {
    const issuer = text(fields, 'issuer', where);
    const clientId = text(fields, 'client_id', where);
    const key = `${issuer}\n${clientId}`;
    if (seen.has(key)) fail(`${where} repeats the issuer ${issuer} with client_id ${clientId}`);
    seen.add(key);
    const ids = fields.deployment_ids;
    if (
      !Array.isArray(ids) ||
      ids.length === 0 ||
      !ids.every((id) => typeof id === 'string' && id.trim() !== '')
    )
      fail(`${where}: "deployment_ids" must be a non-empty list of strings`);
    const authLoginUrl = link(fields, 'auth_login_url', where);
    const authTokenUrl = link(fields, 'auth_token_url', where);
    const jwksUrl = link(fields, 'jwks_url', where);
    const audience =
      fields.auth_audience === undefined ? authTokenUrl : text(fields, 'auth_audience', where);
    let frameOrigins = defaultFrameOrigins(issuer, authLoginUrl);
    if (fields.frame_origins !== undefined) {
      const list = fields.frame_origins;
      if (!Array.isArray(list)) fail(`${where}: "frame_origins" must be a list of origins`);
      frameOrigins = list.map((origin) => {
        const url = safeUrl(origin);
        if (!url)
          fail(`${where}: "frame_origins" has ${JSON.stringify(origin)}, not an https origin`);
        return new URL(url).origin;
      });
    }
    return {
      id: platformId(issuer, clientId),
      issuer,
      clientId,
      deploymentIds: (ids as string[]).map((id) => id.trim()),
      authLoginUrl,
      authTokenUrl,
      jwksUrl,
      authAudience: audience,
      frameOrigins,
    };
  });
}

function toolKey(privateKey: KeyObject, where: string): LtiToolKey {
  if (
    privateKey.asymmetricKeyType !== 'rsa' ||
    (privateKey.asymmetricKeyDetails?.modulusLength ?? 0) < 2048
  )
    throw new Error(`AYAH_LTI_PRIVATE_KEY: ${where} must be an RSA key of 2048 bits or more`);
  const publicKey = createPublicKey(privateKey);
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return {
    kid: createHash('sha256').update(der).digest('base64url').slice(0, 16),
    privateKey,
    publicKey,
  };
}

/** The tool's signing keys: AYAH_LTI_PRIVATE_KEY's PEM blocks, or one generated into the data dir. */
export function loadLtiKeys(value: string | undefined, dataDir: string): LtiToolKey[] {
  if (value !== undefined && value.trim() !== '') {
    const blocks = value.match(
      /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+?-----END [A-Z ]*PRIVATE KEY-----/g,
    );
    if (!blocks) throw new Error('AYAH_LTI_PRIVATE_KEY must hold one or more PEM private keys');
    return blocks.map((pem, index) => {
      let key: KeyObject;
      try {
        key = createPrivateKey(pem);
      } catch {
        throw new Error(
          `AYAH_LTI_PRIVATE_KEY: key ${index + 1} could not be read as a PEM private key`,
        );
      }
      return toolKey(key, `key ${index + 1}`);
    });
  }
  const file = path.join(dataDir, 'lti-private-key.pem');
  if (existsSync(file))
    return [toolKey(createPrivateKey(readFileSync(file, 'utf8')), 'the stored key')];
  mkdirSync(dataDir, { recursive: true });
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  chmodSync(file, 0o600);
  return [toolKey(privateKey, 'the stored key')];
}

type Env = Record<string, string | undefined>;

export function loadLtiConfig(env: Env, dataDir: string): LtiConfig {
  const flag = env.AYAH_LTI_DYNAMIC_REGISTRATION?.trim() ?? '';
  if (flag !== '' && flag !== '0' && flag !== '1')
    throw new Error(`AYAH_LTI_DYNAMIC_REGISTRATION must be 1 or 0, got "${flag}"`);
  return {
    platforms: parseLtiPlatforms(env.AYAH_LTI_PLATFORMS),
    keys: loadLtiKeys(env.AYAH_LTI_PRIVATE_KEY, dataDir),
    dynamicRegistration: flag === '1',
  };
}
