/**
 * The embedded database's lock (server/db/data-dir.ts) within one process: holding it twice is
 * refused, a lock file left with our pid by a past life (a container restarted as pid 1) is taken
 * over, and a released lock can be taken again.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { DataDirLockedError, lockDataDir, lockFileOf } from '../../../server/db/data-dir';

let dir: string;
let pgdata: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-lock-'));
  pgdata = path.join(dir, 'pgdata');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the data directory lock in one process', () => {
  it('refuses a second hold of a data dir this process already holds', () => {
    const lock = lockDataDir(pgdata);
    try {
      expect(() => lockDataDir(pgdata)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(pgdata)).toThrow(`(pid ${process.pid}`);
      // The refusal left the holder's lock in place.
      expect(JSON.parse(readFileSync(lockFileOf(pgdata), 'utf8')).pid).toBe(process.pid);
    } finally {
      lock.release();
    }
  });

  it('takes over a lock file that carries our pid from a past life', () => {
    const since = '2026-01-01T00:00:00.000Z';
    writeFileSync(
      lockFileOf(pgdata),
      JSON.stringify({ pid: process.pid, host: os.hostname(), since }) + '\n',
    );
    const lock = lockDataDir(pgdata);
    try {
      expect(JSON.parse(readFileSync(lockFileOf(pgdata), 'utf8')).since).not.toBe(since);
    } finally {
      lock.release();
    }
  });

  it('can be taken again once released', () => {
    lockDataDir(pgdata).release();
    const again = lockDataDir(pgdata);
    again.release();
    again.release(); // safe twice
  });
});
