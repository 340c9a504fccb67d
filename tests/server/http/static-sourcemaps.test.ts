/** Finding #14: a production build's source maps are never served, plain or precompressed. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// @ts-expect-error: a plain .mjs script without types
import { compressDir } from '../../../scripts/compress-assets.mjs';
import { Harness, onPostgres } from '../harness';

const dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-maps-'));
mkdirSync(path.join(dir, 'assets'));
writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Ayah</title>');
const script = `console.log(${JSON.stringify('x'.repeat(5000))});\n//# sourceMappingURL=app-1a2b.js.map`;
writeFileSync(path.join(dir, 'assets', 'app-1a2b.js'), script);
const map = JSON.stringify({
  version: 3,
  sources: ['../src/secret.ts'],
  sourcesContent: ['x'.repeat(5000)],
});
writeFileSync(path.join(dir, 'assets', 'app-1a2b.js.map'), map);
writeFileSync(path.join(dir, 'assets', 'Upper.JS.MAP'), map);
const h = new Harness({ staticDir: dir });
beforeAll(async () => {
  compressDir(dir);
  if (!onPostgres) await h.start();
});
afterAll(async () => {
  if (h.url) await h.close();
  rmSync(dir, { recursive: true, force: true });
});

// The database plays no part: PGlite's pass is enough.
describe.skipIf(onPostgres)('source maps', () => {
  it('serves the script but not its map, in any encoding or spelling', async () => {
    expect((await fetch(`${h.url}/assets/app-1a2b.js`)).status).toBe(200);
    for (const file of [
      'app-1a2b.js.map',
      'app-1a2b.js.map.br',
      'app-1a2b.js.map.gz',
      'Upper.JS.MAP',
    ]) {
      for (const encoding of ['br, gzip', 'identity']) {
        const reply = await fetch(`${h.url}/assets/${file}`, {
          headers: { 'Accept-Encoding': encoding },
        });
        expect(reply.status, `${file} ${encoding}`).toBe(404);
        expect(await reply.json()).toEqual({ detail: 'Not Found' });
      }
    }
  });
});
