// A CPU profile of a cold load of /auth (signed out) in Chromium, summarised by self time per
// function and per script: where the first load's main-thread time goes. `tsx bench/lighthouse/profile.ts [route]`
import { chromium } from 'playwright-core';

import { CHROMIUM_PATH, chromiumLaunchOptions } from '../../tests/chromium.ts';
import { startProduct } from '../../tests/e2e/product.ts';

const route = process.argv[2] ?? '/auth';
const product = await startProduct();
const browser = await chromium.launch({
  ...chromiumLaunchOptions(),
  executablePath: CHROMIUM_PATH,
});
try {
  const page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await page.goto(`${product.url}${route}`, { waitUntil: 'networkidle' });
  const { profile } = await cdp.send('Profiler.stop');
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const dt = profile.timeDeltas ?? [];
  profile.samples?.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0)));
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  for (const [id, us] of self) {
    const { callFrame: c } = byId.get(id)!;
    const where = c.url.split('/').pop() || c.functionName || '(none)';
    fn.set(
      `${c.functionName || '(anon)'} ${where}:${c.lineNumber}`,
      (fn.get(`${c.functionName || '(anon)'} ${where}:${c.lineNumber}`) ?? 0) + us,
    );
    file.set(where, (file.get(where) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .forEach(([k, v]) => console.log(`${(v / 1000).toFixed(1).padStart(8)} ms  ${k}`));
  console.log('by script');
  top(file, 12);
  console.log('by function');
  top(fn, 30);
} finally {
  await browser.close();
  await product.stop();
}
