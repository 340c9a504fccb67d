#!/usr/bin/env node
// bench:stories — how long each story of the built Storybook takes to settle, as a designer
// clicking through the sidebar sees it: Debian's Chromium on the static build, one preview iframe,
// each story selected in turn through Storybook's own channel (as the sidebar does).
//
// Settled: the story has finished (loaders, render and play function done), the fonts are loaded,
// no finite animation or transition is running and the DOM has stopped changing (no mutation for
// QUIET_MS). The settle time is from selecting the story to the last of those; a story that never
// goes quiet counts at the cap. Infinite animations (a spinner's turn) are its state, not a wait.
// What a story does on purpose is reported apart and taken off the settle time: a play function's
// typing (its key events, one run of them at a time), and a timed behaviour the story is about and
// declares as `parameters: { settle: { onPurposeMs, why } }` (the spec's 3 s redirect, a toast's
// 2 s), listed at the end so the declarations can be checked.
//
// Usage: node bench/stories/run.mjs [--static <dir>] [--only <id substring>] [--rounds <n>]
// Without --static it runs `storybook build` into a scratch directory first. Ends with one line:
//   stories=<n> over_2s=<n> p50_ms=<n> max_ms=<n> load=<1-min load average>
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';
import { runnerImport } from 'vite';

import { fmt, median, percentile, serve } from '../browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, '../..');
const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const QUIET_MS = 500;
const CAP_MS = 10_000;
const LIMIT_MS = 2_000;
const ROUNDS = Number(option('rounds', 1));

let dir = option('static', null);
let scratch = null;
if (!dir) {
  scratch = mkdtempSync(path.join(tmpdir(), 'ayah-bench-storybook-'));
  dir = scratch;
  console.log('building Storybook…');
  execFileSync('npx', ['storybook', 'build', '--quiet', '-o', dir], { cwd: repo, stdio: 'ignore' });
}
dir = path.resolve(dir);
const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8'));
const only = option('only', '');
const ids = Object.values(index.entries)
  .filter((entry) => entry.type === 'story' && entry.id.includes(only))
  .map((entry) => entry.id);

const server = await serve(dir);
const { module } = await runnerImport(path.join(repo, 'tests/chromium.ts'));
const browser = await chromium.launch(module.chromiumLaunchOptions());
const results = [];
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const base = `http://127.0.0.1:${server.address().port}`;
  // The first story loads the preview (its bundles, the loaders' chunks): a designer waits for that
  // once when Storybook opens, so it is not one story's time.
  await page.goto(`${base}/iframe.html?id=${ids[0]}&viewMode=story`);
  await page.waitForFunction(() => globalThis.__STORYBOOK_PREVIEW__?.currentRender?.phase);
  await page.evaluate(installProbe);
  for (let round = 0; round < ROUNDS; round++)
    for (const id of ids) {
      const result = await page.evaluate(
        ([storyId, quiet, cap]) => globalThis.settle(storyId, quiet, cap),
        [id, QUIET_MS, CAP_MS],
      );
      const previous = results.find((r) => r.id === id);
      if (!previous) results.push({ id, ...result });
      else if (result.settle < previous.settle) Object.assign(previous, result);
    }
  if (errors.length > 0) console.log(`page errors: ${[...new Set(errors)].join(' | ')}`);
} finally {
  await browser.close();
  server.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

// What a story waits for on purpose (typing, or a timed behaviour it declares in
// `parameters.settle = { onPurposeMs, why }`, such as the spec's 3 s redirect) is not a wait to settle.
const net = (r) => Math.max(0, r.settle - r.typing - r.onPurpose);
results.sort((a, b) => net(b) - net(a));
console.log(
  `${'slowest stories'.padEnd(60)} ${'settle'.padStart(7)} ${'play'.padStart(6)} ${'typing'.padStart(6)}  last waited for`,
);
for (const r of results.slice(0, 15))
  console.log(
    `${r.id.padEnd(60)} ${fmt(net(r), 7)} ${fmt(r.play, 6)} ${fmt(r.typing, 6)}  ${r.why}${r.status === 'success' ? '' : ` (${r.status})`}`,
  );
const declared = results.filter((r) => r.onPurpose > 0);
if (declared.length > 0) {
  console.log('waiting on purpose (taken off):');
  for (const r of declared)
    console.log(
      `  ${r.id}: ${r.onPurpose} ms for ${r.onPurposeWhy} (${Math.round(r.settle)} ms in all)`,
    );
}
const times = results.map(net);
const over = results.filter((r) => net(r) > LIMIT_MS);
if (over.length > 0) console.log(`over 2 s: ${over.map((r) => r.id).join(', ')}`);
console.log(
  `stories=${results.length} over_2s=${over.length} p50_ms=${Math.round(median(times))} p90_ms=${Math.round(percentile(times, 90))} max_ms=${Math.round(Math.max(...times))} load=${loadavg()[0].toFixed(2)}`,
);

/**
 * Runs in the preview iframe: `settle(id)` selects a story and resolves with how long it took to
 * settle and what it waited for last.
 */
/* global document, MutationObserver, requestAnimationFrame -- runs in the page */
function installProbe() {
  const channel = globalThis.__STORYBOOK_ADDONS_CHANNEL__;
  let lastMutation = 0;
  new MutationObserver(() => {
    lastMutation = performance.now();
  }).observe(document.documentElement, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  // Time a play function spends typing (userEvent's key events, one after another): deliberate, not
  // a wait. Key events closer than 250 ms apart count as one run of typing.
  let typing = 0;
  let lastKey = null;
  let phase = '';
  let playing = 0;
  channel.on('storyRenderPhaseChanged', (event) => {
    const now = performance.now();
    if (event?.newPhase === 'playing') playing = now;
    if (event?.newPhase === 'played') playing = now - playing;
    phase = event?.newPhase ?? phase;
  });
  for (const type of ['keydown', 'keyup', 'beforeinput', 'input'])
    document.addEventListener(
      type,
      () => {
        if (phase !== 'playing') return;
        const now = performance.now();
        if (lastKey !== null && now - lastKey < 250) typing += now - lastKey;
        lastKey = now;
      },
      true,
    );
  const running = () =>
    document.getAnimations().filter((a) => {
      if (a.playState !== 'running') return false;
      const timing = a.effect?.getComputedTiming();
      return timing && timing.iterations !== Infinity;
    });
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  globalThis.settle = async (storyId, quiet, cap) => {
    typing = 0;
    lastKey = null;
    playing = 0;
    const finished = new Promise((resolve) => {
      const done = (event) => (status) => {
        channel.off('storyFinished', onFinished);
        channel.off('storyErrored', onErrored);
        channel.off('storyThrewException', onThrew);
        resolve(status?.status ?? event);
      };
      const onFinished = done('success');
      const onErrored = done('errored');
      const onThrew = done('threw');
      channel.on('storyFinished', onFinished);
      channel.on('storyErrored', onErrored);
      channel.on('storyThrewException', onThrew);
    });
    const start = performance.now();
    lastMutation = start;
    channel.emit('setCurrentStory', { storyId, viewMode: 'story' });
    const status = await Promise.race([
      finished,
      new Promise((resolve) => setTimeout(() => resolve('timeout'), cap)),
    ]);
    const finishedAt = performance.now();
    await document.fonts.ready;
    const fontsAt = performance.now();
    let animationAt = 0;
    for (;;) {
      await frame();
      const now = performance.now();
      if (running().length > 0) animationAt = now;
      if (now - start > cap) break;
      if (now - Math.max(lastMutation, animationAt, finishedAt) >= quiet) break;
    }
    const declared = globalThis.__STORYBOOK_PREVIEW__?.currentRender?.story?.parameters?.settle;
    const marks = {
      finished: finishedAt,
      fonts: fontsAt,
      animation: animationAt,
      dom: lastMutation,
    };
    const [why, at] = Object.entries(marks).sort((a, b) => b[1] - a[1])[0];
    return {
      settle: Math.min(cap, at - start),
      typing: Math.round(typing),
      play: Math.round(playing),
      onPurpose: declared?.onPurposeMs ?? 0,
      onPurposeWhy: declared?.why ?? '',
      status,
      why,
    };
  };
}
