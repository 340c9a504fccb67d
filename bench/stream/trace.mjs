#!/usr/bin/env node
// Where the main thread's time goes while a reply streams: one run of bench:stream's page under a
// Performance trace (CDP Tracing), self time summed by trace event (style recalculation, layout,
// paint, script…), and the longest tasks with what they spent their time on.
//   node bench/stream/trace.mjs [--renderer ours] [--units 4] [--cpu 4]
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { fmt, throttle, withBenchPage } from '../browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const renderer = option('renderer', 'ours');
const units = Number(option('units', 4));
const cpu = Number(option('cpu', 4));

await withBenchPage(here, async (page, cdp) => {
  await page.evaluate(([r]) => globalThis.bench.run(r, 1), [renderer]);
  await throttle(cdp, cpu);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing',
    transferMode: 'ReportEvents',
  });
  const stats = await page.evaluate(([r, u]) => globalThis.bench.run(r, u), [renderer, units]);
  await cdp.send('Tracing.end');
  await complete;
  await throttle(cdp, 1);

  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const slices = events
    .filter((e) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // Self time: a slice's thread time (its wall time where there is none: on a busy machine the
  // thread is often descheduled) less its children's, nesting by wall time.
  const cost = (slice) => slice.tdur ?? slice.dur;
  const self = new Map();
  const stack = [];
  const tasks = [];
  for (const slice of slices) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= slice.ts) stack.pop();
    const parent = stack.at(-1);
    slice.self = cost(slice);
    slice.parts = new Map();
    if (parent) parent.self -= cost(slice);
    else if (slice.name === 'RunTask') tasks.push(slice);
    slice.task = parent ? parent.task : slice;
    stack.push(slice);
  }
  for (const slice of slices) {
    self.set(slice.name, (self.get(slice.name) ?? 0) + slice.self);
    slice.task.parts.set(slice.name, (slice.task.parts.get(slice.name) ?? 0) + slice.self);
  }
  const total = [...self.values()].reduce((sum, us) => sum + us, 0);
  console.log(
    `${renderer}, ${stats.characters} characters in ${stats.updates} updates at ${cpu}× CPU: ` +
      `${(total / 1000).toFixed(0)} ms of main-thread (thread) time; ${stats.longTasks} long tasks`,
  );
  console.log('self ms  share  trace event');
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 16)) {
    console.log(`${fmt(us / 1000, 7)} ${fmt((100 * us) / total, 5, 1)}%  ${name}`);
  }
  console.log('longest tasks (ms): what they spent it on');
  for (const task of tasks.sort((a, b) => cost(b) - cost(a)).slice(0, 8)) {
    const parts = [...task.parts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([name, us]) => `${name} ${(us / 1000).toFixed(1)}`)
      .join(', ');
    console.log(`${fmt(cost(task) / 1000, 7, 1)}: ${parts}`);
  }
});
