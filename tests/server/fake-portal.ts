/**
 * A school portal's side of the token exchange, for the tests: its own key pairs, its JWKS served over
 * real HTTP on loopback (the portal's boundary, speaking the real protocol), and assertions signed as
 * its backend would sign them, or spoilt in one named way.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { JWK, JWTPayload } from 'jose';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export const AUDIENCE = 'https://ayah.test';

export interface AssertionOptions {
  /** Claims to add or override (`undefined` removes one: `{ jti: undefined }`). */
  claims?: Record<string, unknown>;
  /** Seconds: `exp - iat` (default 120). */
  lifetime?: number;
  /** Seconds added to now for `iat` (negative for an assertion issued earlier). */
  issuedAtOffset?: number;
  /** Signed with a key the portal never published, under the published key's id. */
  foreignKey?: boolean;
}

export class FakePortal {
  issuer = '';
  jwksRequests = 0;
  private keys!: KeyPair;
  private foreign!: KeyPair;
  private publicJwk!: JWK;
  private readonly kid = randomBytes(6).toString('hex');
  private readonly server = createServer((req, res) => {
    if (req.url === '/jwks') {
      this.jwksRequests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [this.publicJwk] }));
      return;
    }
    res.writeHead(404).end();
  });

  /** `alg`: how this portal signs (its JWKS publishes that key). */
  constructor(private readonly alg: 'RS256' | 'ES256' | 'EdDSA' = 'RS256') {}

  async start(): Promise<this> {
    this.keys = await generateKeyPair(this.alg, { extractable: true });
    this.foreign = await generateKeyPair(this.alg);
    this.publicJwk = { ...(await exportJWK(this.keys.publicKey)), kid: this.kid, alg: this.alg };
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/portal`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  get jwksUrl(): string {
    return new URL('/jwks', this.issuer).toString();
  }

  /** This portal as an entry of AYAH_TRUSTED_ISSUERS: by its JWKS URL, or by its public key (PEM). */
  async trusted(by: 'jwks' | 'pem' = 'jwks') {
    return by === 'jwks'
      ? { issuer: this.issuer, audience: AUDIENCE, jwks_url: this.jwksUrl }
      : {
          issuer: this.issuer,
          audience: AUDIENCE,
          public_key: await exportSPKI(this.keys.publicKey),
        };
  }

  /** An assertion for student `sub`, as the portal's backend signs it (120 s, a fresh jti). */
  async assertion(sub: string | undefined, options: AssertionOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000) + (options.issuedAtOffset ?? 0);
    const payload: JWTPayload = {
      iss: this.issuer,
      aud: AUDIENCE,
      sub,
      jti: randomUUID(),
      iat: now,
      exp: now + (options.lifetime ?? 120),
      name: 'Noor Student',
      ...options.claims,
    };
    for (const [claim, value] of Object.entries(payload)) {
      if (value === undefined) delete payload[claim];
    }
    const key = options.foreignKey ? this.foreign.privateKey : this.keys.privateKey;
    return new SignJWT(payload).setProtectedHeader({ alg: this.alg, kid: this.kid }).sign(key);
  }
}

/** A JWT with `alg: none` (no signature), as an attacker would send it. */
export function unsignedJwt(payload: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`;
}
