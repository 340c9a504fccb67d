/**
 * The embedded database's directory: one process at a time, and private to the user running it.
 *
 * PGlite has no lock of its own, so two servers on one data dir both start, both answer, and each
 * overwrites the other's pages: writes vanish at the next restart. `lockDataDir` takes an exclusive
 * lock file beside the directory (`<dir>.lock`, holding the owner's pid and host), held for the
 * process's life, and refuses a second owner with a message naming the first. A lock whose pid is no
 * longer running on this host is stale (a crash, a `kill -9`) and is taken over.
 *
 * PGlite unpacks its initial files world-writable (0666): `secureDataDir` sets the umask so that
 * whatever is created afterwards is 0600 / 0700, and brings existing files down to that.
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `The data directory ${dataDir} is in use by another Ayah process (pid ${owner.pid}` +
        `${owner.host !== os.hostname() ? ` on ${owner.host}` : ''}, since ${owner.since}). ` +
        'Stop that process first; to run several servers at once, give each the same DATABASE_URL ' +
        '(PostgreSQL) instead of one embedded data directory.',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file (only if it is still this process's). Safe to call twice. */
  release(): void;
}

/** Where the lock of a data directory lives: beside it, so that a dump of the directory omits it. */
export function lockFileOf(dataDir: string): string {
  return `${path.resolve(dataDir)}.lock`;
}

function readOwner(file: string): LockOwner | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number') return null;
    return { pid: parsed.pid, host: String(parsed.host ?? ''), since: String(parsed.since ?? '') };
  } catch {
    return null; // being written this instant, or garbage: treated below
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock files this process holds now: its own pid in one of these is a live lock, not a past life. */
const held = new Set<string>();

/**
 * A lock is stale when its owner is a process of this host that no longer runs, or carries our pid
 * without our holding it (a container restarted as pid 1 again). This process opening a data dir it
 * already holds is refused like any second owner.
 */
function isStale(owner: LockOwner | null, file: string): boolean {
  if (!owner) {
    // Unreadable: a writer between create and write, or a torn file. Stale once it is old.
    try {
      return Date.now() - statSync(file).mtimeMs > 10_000;
    } catch {
      return true;
    }
  }
  if (owner.host !== os.hostname()) return false; // another machine's process: cannot tell
  if (owner.pid === process.pid) return !held.has(file);
  return !isRunning(owner.pid);
}

function createExclusive(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    const owner: LockOwner = {
      pid: process.pid,
      host: os.hostname(),
      since: new Date().toISOString(),
    };
    writeSync(fd, JSON.stringify(owner) + '\n');
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes the data directory's lock or throws `DataDirLockedError`. A stale lock is removed under a
 * second, short-lived lock (a directory, created atomically), so that two processes restarting after
 * a crash cannot both take it over.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = lockFileOf(dataDir);
  mkdirSync(path.dirname(file), { recursive: true });
  const takeover = `${file}.takeover`;
  for (let attempt = 0; ; attempt++) {
    if (createExclusive(file)) break;
    const owner = readOwner(file);
    if (!isStale(owner, file)) {
      throw new DataDirLockedError(dataDir, owner ?? { pid: NaN, host: '?', since: '?' });
    }
    if (attempt >= 5) throw new Error(`Could not take over the stale lock ${file}`);
    try {
      mkdirSync(takeover);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Someone else is taking it over (or died doing so a while ago).
      try {
        if (Date.now() - statSync(takeover).mtimeMs > 30_000) rmdirSync(takeover);
      } catch {
        /* gone already */
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      continue;
    }
    try {
      // Checked again under the takeover lock: it may have been taken over since.
      if (isStale(readOwner(file), file)) {
        try {
          unlinkSync(file);
        } catch {
          /* already removed */
        }
      }
    } finally {
      rmdirSync(takeover);
    }
  }

  held.add(file);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    held.delete(file);
    process.off('exit', release);
    if (readOwner(file)?.pid === process.pid) {
      try {
        unlinkSync(file);
      } catch {
        /* already removed */
      }
    }
  };
  process.on('exit', release);
  return { file, release };
}

/**
 * Makes the data directory private: umask 077 for everything this process creates from now on, the
 * directory 0700 and every file already in it 0600 (PGlite's initial files are unpacked 0666).
 */
export function secureDataDir(dataDir: string): void {
  try {
    process.umask(0o077);
  } catch {
    // Worker threads cannot change the umask; the chmod below still applies.
  }
  if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const walk = (dir: string) => {
    chmodSync(dir, 0o700);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) chmodSync(full, 0o600);
    }
  };
  walk(dataDir);
}
