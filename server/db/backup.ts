/**
 * Backup and restore of the embedded database (`npm run db:backup` / `db:restore`): PGlite's own dump
 * of its data directory (a gzipped tar, `dumpDataDir`), loaded back with `loadDataDir`. Both take the
 * data dir's lock first (data-dir.ts), so neither runs beside a live server: a copy of pages that are
 * being written is not a backup. For PostgreSQL (`DATABASE_URL`) use pg_dump / pg_restore.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

import { PGlite } from '@electric-sql/pglite';

import { lockDataDir, secureDataDir } from './data-dir';
import { PGLITE_EXTENSIONS } from './pglite-extensions';

/** Writes a dump of `pgdata` to `file` (0600: it holds every account); answers its size in bytes. */
export async function backupDataDir(pgdata: string, file: string): Promise<number> {
  if (!existsSync(pgdata) || readdirSync(pgdata).length === 0) {
    throw new Error(`There is no database in ${pgdata} to back up.`);
  }
  const lock = lockDataDir(pgdata);
  try {
    const client = await PGlite.create(pgdata, { extensions: PGLITE_EXTENSIONS });
    try {
      // A checkpoint first, so that the dump holds every committed write in the data files.
      await client.exec('CHECKPOINT');
      const dump = await client.dumpDataDir('gzip');
      const bytes = Buffer.from(await dump.arrayBuffer());
      // `mode` only applies to a file being created: a new private file beside the target, renamed
      // over it, so an existing world-readable file never holds the dump (and a crash leaves no half).
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        writeFileSync(temporary, bytes, { mode: 0o600, flag: 'wx' });
        renameSync(temporary, file);
      } catch (error) {
        rmSync(temporary, { force: true });
        throw error;
      }
      return bytes.length;
    } finally {
      await client.close();
    }
  } finally {
    lock.release();
  }
}

/**
 * Loads a dump into `pgdata`. A database already there is not deleted but moved aside to
 * `<pgdata>.before-restore-<time>`, which is answered (null when there was none).
 */
export async function restoreDataDir(pgdata: string, file: string): Promise<string | null> {
  const dump = readFileSync(file);
  if (dump.length < 2 || dump[0] !== 0x1f || dump[1] !== 0x8b) {
    throw new Error(`${file} is not a backup made by db:backup (a gzipped tar).`);
  }
  const lock = lockDataDir(pgdata);
  try {
    let movedTo: string | null = null;
    if (existsSync(pgdata) && readdirSync(pgdata).length > 0) {
      movedTo = `${pgdata}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(pgdata, movedTo);
    }
    secureDataDir(pgdata);
    const client = await PGlite.create(pgdata, {
      extensions: PGLITE_EXTENSIONS,
      loadDataDir: new Blob([new Uint8Array(dump)]),
    });
    try {
      await client.query('select 1');
    } finally {
      await client.close();
    }
    secureDataDir(pgdata);
    return movedTo;
  } finally {
    lock.release();
  }
}
