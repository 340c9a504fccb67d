#!/usr/bin/env node
// bench:history — how fast a long saved conversation opens: the production <Chat> against naive
// react-markdown rendering every message, for sessions of 50, 200 and 1,000 messages (half of
// them tutoring replies of ~3,000 characters with 6 formulas), at 1× and 4× CPU throttle.
//
// Time: from rendering to the frame that paints the last message. Every run's formulas are new
// (a per-run tag), so a formula cache starts cold; `reopen` opens the same session again.
// The markup of every message <Chat> has in the DOM must equal naive's for that message.
// Ends with one line:
//   open200_ms=<n> naive200_ms=<n> ratio200=<x> open1000_over_open50=<x> throttled_open200_ms=<n>
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { fmt, median, throttle, withBenchPage } from '../browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// Naive at 1,000 messages or at 4× takes tens of seconds a run on a shared machine: by default
// it runs once there (BENCH_NAIVE_ROUNDS to change), and at 4× only for 200 messages.
const NAIVE_ROUNDS = Number(process.env.BENCH_NAIVE_ROUNDS ?? 1);
// BENCH_SIZES (e.g. `10,20`) for a quick look; the result line needs the default sizes.
const SIZES = (process.env.BENCH_SIZES ?? '50,200,1000').split(',').map(Number);

await withBenchPage(here, async (page, cdp) => {
  let runs = 0;
  const open = async (renderer, count, tag = `${++runs}`) => {
    await page.evaluate(() => globalThis.gc?.());
    return page.evaluate(([r, n, t]) => globalThis.bench.open(r, n, t), [renderer, count, tag]);
  };
  const naiveRounds = (rate, size) => {
    if (rate === 1) return size === 1000 ? NAIVE_ROUNDS : ROUNDS;
    return size === 200 ? NAIVE_ROUNDS : 0;
  };

  // Warm-up: both renderers' code compiled before anything is timed.
  await open('ours', 50);
  await open('naive', 50);

  const results = {};
  const failures = [];
  for (const rate of [1, 4]) {
    await throttle(cdp, rate);
    for (const size of SIZES) {
      const ours = [];
      const naive = [];
      for (let round = 0; round < ROUNDS; round++) {
        ours.push(await open('ours', size));
        if (round < naiveRounds(rate, size)) {
          const tag = `${runs}`;
          naive.push(await open('naive', size, tag));
          // The same session, same formulas: ours against naive, message by message.
          if (round === 0) failures.push(...compare(await open('ours', size, tag), naive.at(-1)));
        }
      }
      results[`${rate}x${size}`] = { ours, naive };
    }
  }
  await throttle(cdp, 1);
  const reopenTag = `${++runs}`;
  await open('ours', 200, reopenTag);
  const reopen = [];
  for (let round = 0; round < ROUNDS; round++) reopen.push(await open('ours', 200, reopenTag));

  console.log(
    'ms from render to the frame painting the last message; medians (each run); mounted: messages\n' +
      'in the DOM then. Every run opens new formulas; reopen: the same 200 messages again.',
  );
  console.log(
    'cpu  messages    ours ms  mounted    naive ms   naive/ours  (ours runs) (naive runs)',
  );
  const med = (list) => (list.length ? median(list.map((r) => r.ms)) : NaN);
  for (const [key, { ours, naive }] of Object.entries(results)) {
    const [rate, size] = key.split('x');
    const o = med(ours);
    const n = med(naive);
    console.log(
      `${rate}×  ${size.padStart(8)} ${fmt(o, 10)} ${fmt(ours[0].mounted, 8)} ` +
        `${Number.isNaN(n) ? '         —' : fmt(n, 11)} ${Number.isNaN(n) ? '          —' : fmt(n / o, 12, 1)}` +
        `  (${ours.map((r) => r.ms.toFixed(0)).join(', ')}) (${naive.map((r) => r.ms.toFixed(0)).join(', ')})`,
    );
  }
  console.log(
    `reopen 200 at 1×: ${fmt(med(reopen), 0)} ms (${reopen.map((r) => r.ms.toFixed(0)).join(', ')})`,
  );

  for (const line of failures.slice(0, 10)) console.log(line);
  const dom = failures.length === 0 ? 'identical' : 'DIFFERENT';
  console.log(`dom=${dom}: every message <Chat> mounted, compared with naive's`);
  if (failures.length) process.exitCode = 1;

  if (!results['1x200'] || !results['1x1000']) return;
  const open200 = med(results['1x200'].ours);
  const naive200 = med(results['1x200'].naive);
  const flat = med(results['1x1000'].ours) / med(results['1x50'].ours);
  console.log(
    `open200_ms=${open200.toFixed(0)} naive200_ms=${naive200.toFixed(0)} ` +
      `ratio200=${(open200 / naive200).toFixed(3)} open1000_over_open50=${flat.toFixed(2)} ` +
      `throttled_open200_ms=${med(results['4x200'].ours).toFixed(0)}`,
  );
});

/** Each message ours has in the DOM against the same message in naive's (the last ones). */
function compare(ours, naive) {
  const out = [];
  if (ours.dom.length === 0) out.push('ours shows no message');
  const offset = naive.dom.length - ours.dom.length;
  if (offset < 0) out.push(`ours has ${ours.dom.length} messages, naive ${naive.dom.length}`);
  ours.dom.forEach((html, i) => {
    const expected = naive.dom[offset + i];
    if (html !== expected) {
      out.push(
        `message ${offset + i} of ${naive.dom.length} differs:\n  naive: ${String(expected).slice(0, 300)}\n  ours:  ${html.slice(0, 300)}`,
      );
    }
  });
  return out;
}
