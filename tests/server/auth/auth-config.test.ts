/** The environment of Google and wallet sign-in. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../../../server/config';

const dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const load = (env: Record<string, string>) =>
  loadConfig({ AYAH_DATA_DIR: dir, PUBLIC_URL: 'https://ayah.example.org', ...env });

describe('sign-in configuration', () => {
  it('leaves Google off without its client, and the chain at 1', () => {
    const config = load({});
    expect(config.google).toBeNull();
    expect(config.siweChainId).toBe(1);
  });

  it('takes Google’s client id and secret together, with the callback under PUBLIC_URL', () => {
    expect(load({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' }).google).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      issuer: 'https://accounts.google.com',
      redirectUri: 'https://ayah.example.org/api/v1/auth/google/callback',
    });
    expect(() => load({ GOOGLE_CLIENT_ID: 'id' })).toThrow(/set together/);
    expect(() => load({ GOOGLE_CLIENT_SECRET: 'secret' })).toThrow(/set together/);
    const custom = load({
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      AYAH_GOOGLE_ISSUER: 'http://127.0.0.1:9000/',
      AYAH_GOOGLE_REDIRECT_URI: 'https://api.example.org/api/v1/auth/google/callback',
    }).google;
    expect(custom?.issuer).toBe('http://127.0.0.1:9000');
    expect(custom?.redirectUri).toBe('https://api.example.org/api/v1/auth/google/callback');
    expect(() =>
      load({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's', AYAH_GOOGLE_ISSUER: 'ftp://x' }),
    ).toThrow(/AYAH_GOOGLE_ISSUER/);
  });

  it('reads the wallet chain id as a positive integer', () => {
    expect(load({ AYAH_SIWE_CHAIN_ID: '137' }).siweChainId).toBe(137);
    for (const bad of ['0', '-1', '1.5', 'mainnet']) {
      expect(() => load({ AYAH_SIWE_CHAIN_ID: bad }), bad).toThrow(/AYAH_SIWE_CHAIN_ID/);
    }
  });
});
