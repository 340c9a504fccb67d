#!/usr/bin/env node
// bench:stream — how fast a streamed reply renders: naive react-markdown, streamdown, and ours.
//
// Builds bench/stream/page.tsx for production with Vite into a temporary directory, serves it on
// 127.0.0.1, and drives Debian's Chromium (headless, through playwright-core). A ~12,000-character
// tutoring reply streams in as 3-character growing prefixes, one update per task, no delays; the
// three renderers take turns. Ends with one line:
//   naive/ours=<x> streamdown/ours=<y> growth=<z> dom=identical|DIFFERENT
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, runnerImport } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// Naive rendering is quadratic: one measured run of it is plenty (and most of the bench's time).
const NAIVE_ROUNDS = Number(process.env.BENCH_NAIVE_ROUNDS ?? 1);

const out = mkdtempSync(path.join(tmpdir(), 'ayah-bench-stream-'));
const server = await serve(out);
let browser;
try {
  await main();
} finally {
  await browser?.close();
  server.close();
  rmSync(out, { recursive: true, force: true });
}

async function main() {
  await build({
    root: here,
    configFile: false,
    // The page loads KaTeX up front (timing starts after), so the chunk warnings say nothing.
    logLevel: 'error',
    mode: 'production',
    plugins: [react(), tailwindcss()],
    build: { outDir: out, emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
  });
  const { module } = await runnerImport(path.join(here, '../../tests/chromium.ts'));
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
  await cdp.send('Performance.enable');

  async function measure(renderer, units) {
    await page.evaluate(() => globalThis.gc?.());
    const before = await metrics(cdp);
    const stats = await page.evaluate(([r, u]) => globalThis.bench.run(r, u), [renderer, units]);
    const after = await metrics(cdp);
    return {
      ...stats,
      cpuMs: (after.TaskDuration - before.TaskDuration) * 1000,
      renderMs: stats.updateMs.reduce((sum, ms) => sum + ms, 0),
    };
  }

  // Warm-up: every renderer's code paths compiled before anything is timed.
  for (const renderer of ['ours', 'streamdown', 'naive']) {
    if (renderer !== 'naive' || NAIVE_ROUNDS > 0) await measure(renderer, 1);
  }

  const runs = { ours: [], streamdown: [], naive: [], ours6k: [], harness: [] };
  // The loop itself, rendering nothing: what every run pays before any rendering.
  runs.harness.push(await measure('none', 4));
  for (let round = 0; round < ROUNDS; round++) {
    runs.ours.push(await measure('ours', 4));
    runs.streamdown.push(await measure('streamdown', 4));
    if (round < NAIVE_ROUNDS) runs.naive.push(await measure('naive', 4));
    runs.ours6k.push(await measure('ours', 2));
  }

  console.log(`reply: ${runs.ours[0].characters} characters, ${runs.ours[0].updates} updates of 3`);
  console.log(
    'wall: first update to last, frames included; cpu: main-thread task time (CDP TaskDuration);\n' +
      'render: the updates themselves (React render and commit); p95, max: per update; long tasks:\n' +
      'over 50 ms. Medians of the runs; streamdown is given the reply already normalised.',
  );
  console.log(
    'renderer     wall ms    cpu ms  render ms  p95 ms  max ms  long tasks  (wall ms of each run)',
  );
  const summary = {};
  for (const name of ['naive', 'streamdown', 'ours', 'ours6k', 'harness']) {
    if (runs[name].length === 0) continue;
    const s = summarise(runs[name]);
    summary[name] = s;
    console.log(
      `${name.padEnd(10)} ${fmt(s.wallMs, 9)} ${fmt(s.cpuMs, 9)} ${fmt(s.renderMs, 10)} ` +
        `${fmt(s.p95, 7, 2)} ${fmt(s.max, 7, 1)} ${fmt(s.longTasks, 11)}   ` +
        `(${runs[name].map((r) => r.wallMs.toFixed(0)).join(', ')})`,
    );
  }
  const naiveDom = await page.evaluate(() => globalThis.bench.renderOnce('naive', 4));
  const differences = compareDom(naiveDom, runs.ours[0].dom);
  for (const line of differences.slice(0, 10)) console.log(line);
  const counts = Object.entries(runs.ours[0].dom)
    .map(([k, v]) => `${k}:${v.length}`)
    .join(' ');
  console.log(`final DOM, streamed, compared with one naive render: ${counts}`);
  const dom = differences.length === 0 ? 'identical' : 'DIFFERENT';
  if (dom === 'DIFFERENT') process.exitCode = 1;
  if (!summary.naive) {
    console.log(`dom=${dom} (no naive runs)`);
    return;
  }
  const naiveRatio = summary.naive.wallMs / summary.ours.wallMs;
  const streamdownRatio = summary.streamdown.wallMs / summary.ours.wallMs;
  const growth = summary.ours.wallMs / summary.ours6k.wallMs;
  console.log(
    `cpu ratios: naive/ours=${(summary.naive.cpuMs / summary.ours.cpuMs).toFixed(1)} ` +
      `streamdown/ours=${(summary.streamdown.cpuMs / summary.ours.cpuMs).toFixed(1)}; ` +
      `growth T(12k)/T(6k) by cpu=${(summary.ours.cpuMs / summary.ours6k.cpuMs).toFixed(2)}`,
  );

  console.log(
    `naive/ours=${naiveRatio.toFixed(1)} streamdown/ours=${streamdownRatio.toFixed(1)} ` +
      `growth=${growth.toFixed(2)} dom=${dom}`,
  );
}

async function metrics(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summarise(runs) {
  return {
    wallMs: median(runs.map((r) => r.wallMs)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    renderMs: median(runs.map((r) => r.renderMs)),
    p95: median(runs.map((r) => percentile(r.updateMs, 95))),
    max: median(runs.map((r) => Math.max(...r.updateMs))),
    longTasks: median(runs.map((r) => r.longTasks)),
  };
}

function fmt(value, width, digits = 0) {
  return value.toFixed(digits).padStart(width);
}

function compareDom(expected, actual) {
  const out = [];
  for (const selector of Object.keys(expected)) {
    const a = expected[selector];
    const b = actual[selector];
    if (a.length !== b.length) out.push(`${selector}: ${a.length} in naive, ${b.length} in ours`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i] !== b[i])
        out.push(
          `${selector}[${i}] differs:\n  naive: ${a[i].slice(0, 300)}\n  ours:  ${b[i].slice(0, 300)}`,
        );
    }
  }
  return out;
}

/** A static file server for the built page, on a free port of 127.0.0.1. */
function serve(root) {
  const types = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.woff2': 'font/woff2',
    '.woff': 'font/woff',
    '.ttf': 'font/ttf',
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
