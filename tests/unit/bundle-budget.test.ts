/**
 * The size budgets of the entries portals embed (issue 10), held by the test run rather than by a
 * benchmark someone must remember to run: each entry alone, bundled and minified as a portal's bundler
 * would, React left to the host and every dynamic import() (KaTeX, the markdown renderer, ethers,
 * confetti) left to load later, then gzipped. `npm run bench:bundle` prints the same figures.
 */
import path from 'node:path';

import { describe, expect, test } from 'vitest';

import { ENTRIES, measureEntry } from '../../bench/bundle/entries.mjs';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Gzip kB: the chat before KaTeX and the markdown renderer, the goals widget beside it, and the
 * teacher's view (`ayah-coach/teacher`, issue 24).
 */
const BUDGET_KB: Record<string, number> = { chat: 105, goals: 55, teacher: 60 };

describe('entry size budgets (gzip kB, React external)', () => {
  test.each(Object.entries(BUDGET_KB))(
    'ayah-coach/%s ≤ %d kB',
    async (entry, budget) => {
      const { kb, bytes } = await measureEntry(root, ENTRIES[entry]!);
      const biggest = [...bytes.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([name, size]) => `${name} ${(size / 1024).toFixed(0)} kB`)
        .join(', ');
      expect(kb, `${entry} is ${kb.toFixed(1)} kB gzip (minified: ${biggest})`).toBeLessThanOrEqual(
        budget,
      );
      // Not vacuous: the bundle holds the entry's own code and its state machines.
      expect(bytes.get(`src/${entry}`) ?? 0).toBeGreaterThan(10_000);
      expect(bytes.has('xstate')).toBe(true);
    },
    60_000,
  );
});

/**
 * The root entry (`ayah-coach`: createHttpApi, AyahRoot, the Toaster), which the app's first load
 * carries whole: 60.6 kB with ofetch, ufo and destr, 57.2 kB speaking fetch itself, 53.3 kB with the
 * toast area's code loaded apart, only react-hot-toast's headless store up front (issue 26 #5).
 */
test('ayah-coach (the root entry) ≤ 54.5 kB, its HTTP layer plain fetch', async () => {
  const { kb, bytes } = await measureEntry(root, ENTRIES.index!);
  expect(kb, `the root entry is ${kb.toFixed(1)} kB gzip`).toBeLessThanOrEqual(54.5);
  expect(bytes.has('ofetch')).toBe(false);
  // react-hot-toast's styled part (and goober, its CSS-in-JS) is not in it.
  expect(bytes.has('goober')).toBe(false);
  // Not vacuous: the library's own code is there.
  expect(bytes.get('src/lib') ?? 0).toBeGreaterThan(5_000);
}, 60_000);
