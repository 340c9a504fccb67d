#!/usr/bin/env node
// Which updates of a streamed reply are slow, and why: bench:stream's page streams the reply into
// ours (at --cpu × throttle, --runs times) and each update is labelled with what the renderer had
// to do for it: the unfinished block's kind and length, and whether it was parsed again or only
// had plain text appended. Prints the time by kind, and the slowest updates with their text.
//   node bench/stream/updates.mjs [--units 4] [--cpu 4] [--runs 2]
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { fmt, percentile, throttle, withBenchPage } from '../browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const units = Number(option('units', 4));
const cpu = Number(option('cpu', 4));
const runs = Number(option('runs', 3));

await withBenchPage(here, async (page, cdp) => {
  await page.evaluate(() => globalThis.bench.run('ours', 1));
  const labels = await page.evaluate((u) => globalThis.bench.labels(u), units);
  await throttle(cdp, cpu);
  const times = [];
  for (let r = 0; r < runs; r++) {
    await page.evaluate(() => globalThis.gc?.());
    const stats = await page.evaluate((u) => globalThis.bench.run('ours', u), units);
    stats.updateMs.forEach((ms, i) => (times[i] = Math.min(times[i] ?? Infinity, ms)));
  }
  await throttle(cdp, 1);
  const all = times.map((ms, i) => ({ ms, ...labels[i] }));
  console.log(
    `${all.length} updates at ${cpu}× (each the fastest of ${runs} runs: what it costs every time): ` +
      `p95 ${percentile(times, 95).toFixed(2)} ms, max ${Math.max(...times).toFixed(1)} ms`,
  );
  const groups = new Map();
  for (const u of all) {
    const key = `${u.kind} ${u.reparsed ? 'parsed' : 'appended'}`;
    const g = groups.get(key) ?? [];
    g.push(u);
    groups.set(key, g);
  }
  console.log('   n  total ms  p50 ms  p95 ms  max ms  tail chars (mean)  what');
  for (const [key, g] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    const ms = g.map((u) => u.ms);
    const tail = g.reduce((s, u) => s + u.tail, 0) / g.length;
    console.log(
      `${fmt(g.length, 4)} ${fmt(
        ms.reduce((s, x) => s + x, 0),
        9,
      )} ${fmt(percentile(ms, 50), 7, 2)} ${fmt(percentile(ms, 95), 7, 2)} ${fmt(
        Math.max(...ms),
        7,
        1,
      )} ${fmt(tail, 18)}  ${key}`,
    );
  }
  console.log('slowest updates: ms, kind, tail chars, the chunk');
  for (const u of [...all].sort((a, b) => b.ms - a.ms).slice(0, 25)) {
    console.log(
      `${fmt(u.ms, 7, 1)}  ${u.kind.padEnd(9)} ${fmt(u.tail, 5)}  ${JSON.stringify(u.chunk)}`,
    );
  }
});
