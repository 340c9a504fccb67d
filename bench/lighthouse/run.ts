// bench:lighthouse — Lighthouse (the npm package, mobile preset: a mid-range phone on slow 4G,
// simulated) against the production product as `npm start` serves it, with Debian's Chromium:
// /auth signed out, and /assistant signed in, each on a cold cache. Medians of BENCH_ROUNDS runs
// (3 by default). `--dump` writes each run's full report (LHR JSON) to .test-results/lighthouse/.
// Ends with one line:
//   auth_perf=<n> auth_a11y=<n> assistant_perf=<n> assistant_a11y=<n> auth_lcp_ms=<n> assistant_lcp_ms=<n>
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';

import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

import { CHROMIUM_PATH, chromiumLaunchOptions } from '../../tests/chromium.ts';
import { createStudent, freePort, startProduct } from '../../tests/e2e/product.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DUMP_DIR = process.argv.includes('--dump')
  ? path.join(process.cwd(), '.test-results', 'lighthouse')
  : null;

type Result = {
  perf: number;
  a11y: number;
  lcp: number;
  cls: number;
  tbt: number;
  bytes: number;
  unusedJs: number;
};

const product = await startProduct();
const port = await freePort();
const profile = mkdtempSync(path.join(tmpdir(), 'ayah-lighthouse-'));
const browser = spawn(
  CHROMIUM_PATH,
  [
    ...chromiumLaunchOptions().args,
    '--headless=new',
    `--remote-debugging-port=${port}`,
    `--user-data-dir=${profile}`,
    'about:blank',
  ],
  { stdio: 'ignore' },
);

try {
  const cdpUrl = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${cdpUrl}/json/version`)).ok);
  const student = await createStudent(product, { email: 'lighthouse@example.com', name: 'Lee' });

  const audit = async (route: string, signedIn: boolean, retry = true): Promise<Result> => {
    if (signedIn) await signIn(cdpUrl, student.token);
    const run = await lighthouse(
      `${product.url}${route}`,
      {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        // Signed in, the token in local storage must survive; the cache is cleared by signIn.
        disableStorageReset: signedIn,
      },
      undefined,
    );
    if (!run) throw new Error(`Lighthouse gave no result for ${route}`);
    if (DUMP_DIR) {
      mkdirSync(DUMP_DIR, { recursive: true });
      const name = `${route.slice(1) || 'root'}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
      writeFileSync(path.join(DUMP_DIR, name), JSON.stringify(run.lhr, null, 2));
    }
    const { categories, audits } = run.lhr;
    const error = run.lhr.runtimeError;
    // A trace Lighthouse failed to record (NO_NAVSTART on a busy machine) is its own fault: it asks
    // to be run again, and is, once.
    if (error && retry) return audit(route, signedIn, false);
    if (error) throw new Error(`${route}: ${error.code} ${error.message}`);
    if (signedIn && !run.lhr.finalDisplayedUrl.includes(route)) {
      throw new Error(`${route} ended at ${run.lhr.finalDisplayedUrl}: not signed in`);
    }
    return {
      perf: Math.round((categories.performance?.score ?? 0) * 100),
      a11y: Math.round((categories.accessibility?.score ?? 0) * 100),
      lcp: audits['largest-contentful-paint']?.numericValue ?? NaN,
      cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
      tbt: audits['total-blocking-time']?.numericValue ?? NaN,
      bytes: audits['total-byte-weight']?.numericValue ?? NaN,
      unusedJs:
        (audits['unused-javascript']?.details as { overallSavingsBytes?: number } | undefined)
          ?.overallSavingsBytes ?? 0,
    };
  };

  const pages = { auth: ['/auth', false], assistant: ['/assistant', true] } as const;
  const medians: Record<string, Result> = {};
  console.log(
    'page         perf  a11y   LCP ms    CLS   TBT ms    KiB  unused JS KiB   (perf of each run)',
  );
  // The machine's load beside the figures: Lighthouse's simulated timings still feel a busy CPU.
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(1))
      .join(' ');
  console.log(`load average at the start: ${load()}`);
  for (const [name, [route, signedIn]] of Object.entries(pages)) {
    const runs: Result[] = [];
    for (let round = 0; round < ROUNDS; round++) runs.push(await audit(route, signedIn));
    const m = (key: keyof Result) => median(runs.map((run) => run[key]));
    medians[name] = {
      perf: m('perf'),
      a11y: m('a11y'),
      lcp: m('lcp'),
      cls: m('cls'),
      tbt: m('tbt'),
      bytes: m('bytes'),
      unusedJs: m('unusedJs'),
    };
    const r = medians[name];
    console.log(
      `${route.padEnd(12)} ${String(r.perf).padStart(4)} ${String(r.a11y).padStart(5)} ` +
        `${r.lcp.toFixed(0).padStart(8)} ${r.cls.toFixed(3).padStart(6)} ${r.tbt.toFixed(0).padStart(8)} ` +
        `${(r.bytes / 1024).toFixed(0).padStart(6)} ${(r.unusedJs / 1024).toFixed(0).padStart(14)}` +
        `   (${runs.map((run) => run.perf).join(', ')})`,
    );
  }
  console.log(`load average at the end: ${load()}`);
  const { auth, assistant } = medians as { auth: Result; assistant: Result };
  console.log(
    `auth_perf=${auth.perf} auth_a11y=${auth.a11y} assistant_perf=${assistant.perf} ` +
      `assistant_a11y=${assistant.a11y} auth_lcp_ms=${auth.lcp.toFixed(0)} ` +
      `assistant_lcp_ms=${assistant.lcp.toFixed(0)}`,
  );
} finally {
  browser.kill();
  await product.stop();
  rmSync(profile, { recursive: true, force: true });
}

/** Puts the student's token in the app's local storage, then empties the HTTP cache (a cold load). */
async function signIn(cdpUrl: string, token: string) {
  const connected = await chromium.connectOverCDP(cdpUrl);
  try {
    const context = connected.contexts()[0]!;
    const page = await context.newPage();
    await page.goto(`${product.url}/terms`).catch(() => undefined);
    await page.evaluate((value) => localStorage.setItem('authToken', value), token);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    // Only the connection goes: the browser stays for Lighthouse.
    await connected.close().catch(() => undefined);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function waitFor(check: () => Promise<boolean>) {
  const until = Date.now() + 30_000;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > until) throw new Error('Chromium did not open its debugging port');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
