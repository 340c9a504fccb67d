/**
 * Where the CPU went in a `.cpuprofile` (`npm run bench:class -- --profile DIR` writes one a process):
 * self time summed by function and by module, inclusive time by module (a sample counts for every
 * module on its stack: a library is charged for the node streams it drives), the top 30 of each,
 * and the inclusive time of the frames named with `--focus`.
 *
 *   npm run bench:class:profile -- DIR/CPU.….cpuprofile [--from µs --to µs] [--top 30] [--focus name,…]
 *
 * `--from`/`--to` cut the profile to a burst: the app prints `bench:class mark reset|stats <µs>` on
 * stderr under `--cpu-prof`, on the profile's clock. Without them, the span from the first `reset`
 * mark to the last `stats` mark found in `--marks FILE` (the bench's saved stderr), else all of it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
};

/** A file's module: the npm package it is in, or its path inside the repository. */
function moduleOf(url: string): string {
  if (!url) return '(native/vm)';
  const file = url.replace(/^file:\/\//, '');
  const parts = file.split('/node_modules/');
  if (parts.length > 1) {
    const inner = parts.at(-1)!.split('/');
    return inner[0]!.startsWith('@') ? `${inner[0]}/${inner[1]}` : inner[0]!;
  }
  if (file.startsWith('node:')) return file;
  return path.relative(process.cwd(), file);
}

function window(): { from: number; to: number } {
  const from = option('from');
  const to = option('to');
  if (from || to) return { from: Number(from ?? 0), to: Number(to ?? Infinity) };
  const marks = option('marks');
  if (!marks) return { from: 0, to: Infinity };
  const found = [...readFileSync(marks, 'utf8').matchAll(/bench:class mark (\w+) (\d+)/g)];
  const resets = found.filter((m) => m[1] === 'reset').map((m) => Number(m[2]));
  const stats = found.filter((m) => m[1] === 'stats').map((m) => Number(m[2]));
  return { from: resets[0] ?? 0, to: stats.at(-1) ?? Infinity };
}

function main() {
  const file = process.argv[2];
  if (!file || file.startsWith('--')) {
    console.error(
      'usage: tsx bench/class/profile.ts FILE.cpuprofile [--from µs --to µs | --marks FILE]',
    );
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const top = Number(option('top') ?? 30);
  const focus = (option('focus') ?? '').split(',').filter(Boolean);
  const { from, to } = window();

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const self = new Map<number, number>();
  let at = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    // A sample's time is the gap to the next one (the last gets none).
    const spent = profile.timeDeltas[i + 1] ?? 0;
    if (at < from || at > to) continue;
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + spent);
    total += spent;
  }

  const sum = (key: (n: ProfileNode) => string) => {
    const sums = new Map<string, number>();
    for (const [id, us] of self) {
      const k = key(byId.get(id)!);
      sums.set(k, (sums.get(k) ?? 0) + us);
    }
    return [...sums].sort((a, b) => b[1] - a[1]);
  };
  const idle = (n: ProfileNode) =>
    ['(idle)', '(program)', '(garbage collector)'].includes(n.callFrame.functionName);
  const busy = [...self].filter(([id]) => !idle(byId.get(id)!)).reduce((s, [, us]) => s + us, 0);
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  const msOf = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms`;

  console.log(
    `${path.basename(file)}: ${msOf(total)} sampled in the window, ${msOf(busy)} not idle/program/GC`,
  );
  console.log(`\nself time by function (top ${top}):`);
  const fn = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'}  ${moduleOf(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  for (const [k, us] of sum(fn).slice(0, top)) console.log(`${msOf(us)} ${pct(us)}  ${k}`);
  console.log(`\nself time by module (top ${top}):`);
  const mod = (n: ProfileNode) => (idle(n) ? n.callFrame.functionName : moduleOf(n.callFrame.url));
  for (const [k, us] of sum(mod).slice(0, top)) console.log(`${msOf(us)} ${pct(us)}  ${k}`);

  // Inclusive time by module: a sample counts once for every module on its stack, so a library
  // that calls back into node's streams is charged for them.
  console.log(`\ninclusive time by module (top ${top}):`);
  const within = new Map<string, number>();
  for (const [id, us] of self) {
    if (idle(byId.get(id)!)) continue;
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const m = moduleOf(byId.get(n)!.callFrame.url);
      if (m !== '(native/vm)') seen.add(m);
    }
    for (const m of seen) within.set(m, (within.get(m) ?? 0) + us);
  }
  for (const [k, us] of [...within].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${msOf(us)} ${pct(us)}  ${k}`);

  // Inclusive time of named frames (a sample counts once per name however deep it recurses).
  if (focus.length > 0) {
    console.log('\ninclusive time of --focus frames:');
    const inclusive = new Map<string, number>(focus.map((f) => [f, 0]));
    for (const [id, us] of self) {
      const seen = new Set<string>();
      for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
        const name = byId.get(n)!.callFrame.functionName;
        if (inclusive.has(name) && !seen.has(name)) {
          seen.add(name);
          inclusive.set(name, inclusive.get(name)! + us);
        }
      }
    }
    for (const [k, us] of inclusive) console.log(`${msOf(us)} ${pct(us)}  ${k}`);
  }
}

main();
