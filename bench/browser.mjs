// What the browser benchmarks share: a page built for production with Vite, served on 127.0.0.1,
// opened in Debian's Chromium through playwright-core; and the statistics they print.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { build, runnerImport } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Builds the page in `root` (its index.html), serves it and opens it in a headless Chromium with
 * `gc()` exposed. `body(page, cdp)` runs once the page's `bench.ready` has resolved; everything is
 * torn down after, whatever happens.
 */
export async function withBenchPage(root, body) {
  const out = mkdtempSync(path.join(tmpdir(), `ayah-bench-${path.basename(root)}-`));
  const server = await serve(out);
  let browser;
  try {
    await build({
      root,
      configFile: false,
      // The pages load KaTeX up front (timing starts after), so the chunk warnings say nothing.
      logLevel: 'error',
      mode: 'production',
      plugins: [react(), tailwindcss()],
      build: { outDir: out, emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
    });
    const { module } = await runnerImport(path.join(here, '../tests/chromium.ts'));
    const options = module.chromiumLaunchOptions();
    browser = await chromium.launch({
      ...options,
      args: [...options.args, '--js-flags=--expose-gc'],
    });
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
    await page.evaluate(() => globalThis.bench.ready);
    const cdp = await page.context().newCDPSession(page);
    return await body(page, cdp);
  } finally {
    await browser?.close();
    server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

/** Chrome's CPU throttling: 1 is none, 4 a school Chromebook. */
export function throttle(cdp, rate) {
  return cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function fmt(value, width, digits = 0) {
  return value.toFixed(digits).padStart(width);
}

/** A static file server for the built page, on a free port of 127.0.0.1. */
export function serve(root) {
  const types = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.woff2': 'font/woff2',
    '.woff': 'font/woff',
    '.ttf': 'font/ttf',
    '.json': 'application/json',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
  };
  const server = createServer((request, response) => {
    const file = path.join(
      root,
      path.normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname)),
    );
    if (!file.startsWith(root) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': types[path.extname(file)] ?? 'application/octet-stream',
    });
    response.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
