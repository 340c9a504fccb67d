/**
 * The built package (dist/), shared by every test that checks what a portal installs. `npm test`
 * builds it once before vitest (scripts/test.mjs): it packs the package from a clean copy of the repo,
 * keeps the tarball (packedTarball) and puts that build's dist/ in place. A test run alone builds only
 * when dist/ (or the tarball) is missing or older than its sources, and test files running side by
 * side build dist/ once, under a lock.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const dist = path.join(root, 'dist');

/** What the build reads: when any of these is newer than dist/, dist/ is stale. */
const SOURCES = ['src', 'tsup.config.ts', 'package.json', 'scripts/build-css.mjs', 'tsconfig.json'];
const STAMP = path.join(dist, 'index.js');
const LOCK = path.join(root, '.tmp-package-build.lock');
const STALE_LOCK_MS = 5 * 60_000;

function newest(p: string): number {
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((entry) => newest(path.join(p, entry))));
}

/** Whether `built` (a file) is there and no source is newer. */
function newerThanSources(built: string): boolean {
  if (!existsSync(built)) return false;
  const time = statSync(built).mtimeMs;
  return SOURCES.every((source) => newest(path.join(root, source)) <= time);
}

function isFresh(): boolean {
  return existsSync(path.join(dist, 'styles.css')) && newerThanSources(STAMP);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` holding the lock directory `lock`, which test files in other workers (processes) take
 * too: one at a time, whichever comes first. The holder's pid is written in it: a lock whose holder is
 * gone (a crashed run) is cleared at once, one whose holder still runs is waited for however long it
 * takes (a build on a busy machine), and one without a pid after 5 minutes.
 */
export async function withLock<T>(lock: string, work: () => T | Promise<T>): Promise<T> {
  while (!tryLock(lock)) {
    if (isAbandoned(lock)) rmSync(lock, { recursive: true, force: true });
    await sleep(500);
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Takes the lock directory `lock` if it is free, writing this process's pid in it (see withLock), and
 * answers whether it did. Whoever takes it frees it (removes the directory).
 */
export function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
  } catch {
    return false;
  }
  try {
    writeFileSync(path.join(lock, 'pid'), String(process.pid));
  } catch (error) {
    rmSync(lock, { recursive: true, force: true });
    throw error;
  }
  return true;
}

/** Whether a lock directory is left by a process that is gone (see withLock). */
function isAbandoned(lock: string): boolean {
  const held = statSync(lock, { throwIfNoEntry: false });
  if (!held) return false;
  let pid = 0;
  try {
    pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
  } catch {
    // Not written yet, or the lock is being freed.
  }
  if (!pid) return Date.now() - held.mtimeMs > STALE_LOCK_MS;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Builds dist/ with tsup unless it is up to date; safe to call from test files running in parallel. */
export async function ensureBuilt(): Promise<void> {
  // The lock comes first: while tsup runs, dist/index.js exists before the declarations do.
  await withLock(LOCK, () => {
    if (!isFresh()) execFileSync('npx', ['tsup', '--silent'], { cwd: root, stdio: 'pipe' });
  });
}

/** Bare module specifiers and relative chunks a file imports statically (not `import()`). */
export function staticImports(code: string): string[] {
  const found: string[] = [];
  for (const m of code.matchAll(
    /(?:^|[;\n}])\s*(?:import|export)\s*(?:[^'"();]*?\sfrom\s*)?["']([^"']+)["']/g,
  )) {
    found.push(m[1]!);
  }
  return found;
}

/** Every file of dist/ an entry loads before it runs, and the packages those files import. */
export function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files, packages };
}

/** Where `npm test` keeps the tarball it packed (tests/pack-package.ts). */
export const PACKED = path.join(root, '.test-results', 'package');

/**
 * `npm pack` as a registry's copy would be made: in a clean copy of the repo (the files git knows,
 * tracked or not, and none it ignores: no dist/), with this repo's node_modules, so that `npm pack`
 * alone must build what it packs (the `prepack` script). Answers the tarball, written into
 * `destination`; with `keepDist`, that build's dist/ replaces this repo's.
 */
export function packFromCleanCopy(destination: string, { keepDist = false } = {}): string {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'ayah-pack-'));
  try {
    const clone = path.join(scratch, 'clone');
    const files = execFileSync(
      'git',
      ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
      { cwd: root, encoding: 'utf8' },
    )
      .split('\0')
      .filter((file) => file && existsSync(path.join(root, file)));
    for (const file of files) {
      mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
      copyFileSync(path.join(root, file), path.join(clone, file));
    }
    if (existsSync(path.join(clone, 'dist'))) throw new Error('the clean copy holds a dist/');
    symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
    mkdirSync(destination, { recursive: true });
    const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
      cwd: clone,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The build's own lines come first; npm's JSON answer last.
    const packed = JSON.parse(output.slice(output.search(/^\[/m))) as { filename: string }[];
    if (keepDist) {
      rmSync(dist, { recursive: true, force: true });
      cpSync(path.join(clone, 'dist'), dist, { recursive: true });
    }
    return path.join(destination, packed[0]!.filename);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The tarball `npm test` packed (PACKED) while no source is newer than it; otherwise one packed now,
 * into `scratch`.
 */
export function packedTarball(scratch: string): string {
  const kept = existsSync(PACKED)
    ? readdirSync(PACKED).find((file) => file.endsWith('.tgz'))
    : undefined;
  if (kept && newerThanSources(path.join(PACKED, kept))) return path.join(PACKED, kept);
  return packFromCleanCopy(scratch);
}
