/**
 * AYAH_TRUSTED_ISSUERS is read and checked at start, with a sentence naming the entry and the field;
 * a server without it refuses every exchange with 401.
 */
import type { KeyObject } from 'node:crypto';
import { generateKeyPairSync } from 'node:crypto';

import { expect, it } from 'vitest';

import { JWT_TOKEN_TYPE, PORTAL_MESSAGES } from '../../../server/auth/portal/service';
import { parseTrustedIssuers } from '../../../server/auth/portal/trusted-issuers';
import { loadConfig } from '../../../server/config';
import { describeServer, useTestServer } from '../harness';

const pem = (type: 'rsa' | 'ec' | 'ed25519' | 'ed448', options: object = {}) =>
  generateKeyPairSync(type as 'rsa', options as never) as unknown as {
    publicKey: KeyObject;
    privateKey: KeyObject;
  };

const entry = (fields: Record<string, unknown>) =>
  JSON.stringify([{ issuer: 'https://portal.example', audience: 'ayah', ...fields }]);

it('reads issuers by JWKS URL, PEM or JWK, each with the one algorithm its key signs with', () => {
  const rsa = pem('rsa', { modulusLength: 2048 });
  const ec = pem('ec', { namedCurve: 'P-256' });
  const ed = pem('ed25519');
  const issuers = parseTrustedIssuers(
    JSON.stringify([
      { issuer: 'https://a.example', audience: 'ayah', jwks_url: 'https://a.example/jwks' },
      {
        issuer: 'https://b.example',
        audience: 'ayah',
        public_key: rsa.publicKey.export({ type: 'spki', format: 'pem' }),
      },
      {
        issuer: 'https://c.example',
        audience: 'ayah',
        public_key: ec.publicKey.export({ format: 'jwk' }),
      },
      {
        issuer: 'https://d.example',
        audience: 'ayah',
        public_key: JSON.stringify(ed.publicKey.export({ format: 'jwk' })),
      },
    ]),
  );
  expect(issuers.map((i) => (i.keys.kind === 'key' ? i.keys.algorithm : i.keys.url))).toEqual([
    'https://a.example/jwks',
    'RS256',
    'ES256',
    'EdDSA',
  ]);
  expect(parseTrustedIssuers(undefined)).toEqual([]);
  expect(parseTrustedIssuers('')).toEqual([]);
});

it('stops the start with a clear sentence for every mistake', () => {
  const load = (value: string) => () =>
    loadConfig({ AYAH_TRUSTED_ISSUERS: value, AYAH_JWT_SECRET: 'x'.repeat(32) });
  const wrong = (value: string, reason: RegExp) =>
    expect(load(value)).toThrow(
      new RegExp(`^AYAH_TRUSTED_ISSUERS must be a JSON list of .*: ${reason.source}`),
    );
  wrong('{not json', /it is not valid JSON/);
  wrong('{"issuer":"x"}', /it is not a list/);
  wrong(entry({ audience: '' }), /entry 1 needs "audience"/);
  wrong(JSON.stringify([{ audience: 'a', jwks_url: 'https://x/jwks' }]), /entry 1 needs "issuer"/);
  wrong(entry({}), /entry 1 needs exactly one of "jwks_url" and "public_key"/);
  wrong(entry({ jwks_url: 'https://x/j', public_key: 'k' }), /entry 1 needs exactly one of/);
  wrong(entry({ jwks_url: 'http://portal.example/jwks' }), /"jwks_url" must be https/);
  wrong(entry({ jwks_url: 'https://x/j', extra: 1 }), /entry 1 has unknown field\(s\) extra/);
  wrong(entry({ public_key: 'not a key' }), /"public_key" could not be read as a public key/);
  wrong(entry({ public_key: { kty: 'oct', k: 'c2VjcmV0' } }), /"public_key" must be a public JWK/);
  const rsa = pem('rsa', { modulusLength: 2048 });
  wrong(
    entry({ public_key: rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) }),
    /"public_key" is a private key/,
  );
  wrong(
    entry({
      public_key: pem('rsa', { modulusLength: 1024 }).publicKey.export({
        type: 'spki',
        format: 'pem',
      }),
    }),
    /an RSA key needs 2048 bits or more/,
  );
  wrong(
    entry({ public_key: pem('ed448').publicKey.export({ type: 'spki', format: 'pem' }) }),
    /keys of type ed448 are not accepted/,
  );
  const twice = { issuer: 'https://a.example', audience: 'x', jwks_url: 'https://a.example/j' };
  wrong(JSON.stringify([twice, twice]), /entry 2 repeats the issuer https:\/\/a.example/);
  // Loopback may use http (a portal on the same machine).
  expect(load(entry({ jwks_url: 'http://127.0.0.1:9000/jwks' }))).not.toThrow();
});

const h = useTestServer();

describeServer('a server without trusted issuers', () => {
  it('refuses every exchange with 401', async () => {
    const reply = await h.post('/api/v1/auth/token-exchange', {
      subject_token: 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln',
      subject_token_type: JWT_TOKEN_TYPE,
    });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ detail: PORTAL_MESSAGES.unconfigured });
  });
});
