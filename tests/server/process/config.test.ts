/** Configuration comes from environment variables only, each with a safe default. */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { loadConfig } from '../../../server/config';

const dirs: string[] = [];
function dataDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('has safe defaults', () => {
    const dir = dataDir();
    const config = loadConfig({ AYAH_DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.databaseUrl).toBeNull();
    expect(config.databasePoolSize).toBe(10);
    expect(config.smtpUrl).toBeNull();
    expect(config.allowedOrigins).toEqual([]);
    expect(config.trustProxy).toBe(false);
    expect(config.auth.accessTokenTtlSec).toBe(1800);
    expect(config.auth.verifyTokenTtlMs).toBe(24 * 3600_000);
    expect(config.auth.resetTokenTtlMs).toBe(3600_000);
    // Longer than the 60 s a proxy keeps its idle connections to Ayah: the proxy closes first.
    expect(config.keepAliveMs).toBe(65_000);
  });

  it('generates a 256-bit JWT secret once, keeps it in the data dir with mode 0600', () => {
    const dir = dataDir();
    const first = loadConfig({ AYAH_DATA_DIR: dir });
    expect(first.jwtSecret).toHaveLength(32);
    const file = path.join(dir, 'jwt-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url')).toHaveLength(32);
    const second = loadConfig({ AYAH_DATA_DIR: dir });
    expect(Buffer.from(second.jwtSecret).equals(Buffer.from(first.jwtSecret))).toBe(true);
    const elsewhere = loadConfig({ AYAH_DATA_DIR: dataDir() });
    expect(Buffer.from(elsewhere.jwtSecret).equals(Buffer.from(first.jwtSecret))).toBe(false);
  });

  it('takes AYAH_JWT_SECRET when set, and refuses a short one', () => {
    const dir = dataDir();
    const secret = 'x'.repeat(40);
    expect(
      Buffer.from(loadConfig({ AYAH_DATA_DIR: dir, AYAH_JWT_SECRET: secret }).jwtSecret).toString(),
    ).toBe(secret);
    expect(() => loadConfig({ AYAH_DATA_DIR: dir, AYAH_JWT_SECRET: 'short' })).toThrow(
      /at least 32/,
    );
  });

  it('reads PORT, PUBLIC_URL, DATABASE_URL, AYAH_PG_POOL, SMTP_URL and AYAH_ALLOWED_ORIGINS', () => {
    const config = loadConfig({
      AYAH_DATA_DIR: dataDir(),
      PORT: '8080',
      PUBLIC_URL: 'https://ayah.example.org/',
      DATABASE_URL: 'postgres://u@db/ayah',
      AYAH_PG_POOL: '4',
      SMTP_URL: 'smtp://mail:25',
      AYAH_ALLOWED_ORIGINS: 'https://portal.school.org, http://localhost:5173/',
    });
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('https://ayah.example.org');
    expect(config.databaseUrl).toBe('postgres://u@db/ayah');
    expect(config.databasePoolSize).toBe(4);
    expect(config.smtpUrl).toBe('smtp://mail:25');
    expect(config.allowedOrigins).toEqual(['https://portal.school.org', 'http://localhost:5173']);
    expect(loadConfig({ AYAH_DATA_DIR: dataDir(), PORT: '8080' }).publicUrl).toBe(
      'http://localhost:8080',
    );
  });

  it('refuses values that cannot be right, with the variable named', () => {
    const dir = dataDir();
    expect(() => loadConfig({ AYAH_DATA_DIR: dir, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ AYAH_DATA_DIR: dir, PUBLIC_URL: 'ftp://x' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ AYAH_DATA_DIR: dir, AYAH_KEEP_ALIVE_MS: '0' })).toThrow(
      /AYAH_KEEP_ALIVE_MS/,
    );
    for (const pool of ['0', '-2', '2.5', 'ten']) {
      expect(() => loadConfig({ AYAH_DATA_DIR: dir, AYAH_PG_POOL: pool })).toThrow(
        `AYAH_PG_POOL must be a positive integer, got "${pool}"`,
      );
    }
    expect(() => loadConfig({ AYAH_DATA_DIR: dir, AYAH_ALLOWED_ORIGINS: 'not a url' })).toThrow(
      /AYAH_ALLOWED_ORIGINS/,
    );
  });
});
