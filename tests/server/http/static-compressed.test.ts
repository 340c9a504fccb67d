/** Built assets go out precompressed (brotli, gzip) with immutable caching for hashed files. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, expect, it } from 'vitest';

// @ts-expect-error: a plain .mjs script without types
import { compressDir } from '../../../scripts/compress-assets.mjs';
import { describeServer, Harness } from '../harness';

const dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-static-'));
mkdirSync(path.join(dir, 'assets'));
writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Ayah</title>');
const script = `console.log(${JSON.stringify('x'.repeat(5000))});`;
writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), script);
const h = new Harness({ staticDir: dir });
beforeAll(async () => {
  compressDir(dir);
  await h.start();
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describeServer('static assets', () => {
  it('sends brotli, then gzip, by Accept-Encoding, cached immutably', async () => {
    const url = `${h.url}/assets/index-abc123.js`;
    const br = await fetch(url, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await br.text()).toBe(script);
    const gz = await fetch(url, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(script);
  });
});
