/**
 * `npm run db:backup` / `db:restore` on the embedded database (PGlite only; PostgreSQL has pg_dump):
 * a round trip brings back exactly what was backed up, the database it replaces is kept aside, and
 * neither runs while a live process holds the data dir.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { openDatabase } from '../../../server/db';
import { users } from '../../../server/db/schema';
import { onPostgres } from '../harness';
import { openMigrated, root } from '../server-process';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ayah-backup-'));
const pgdata = path.join(dataDir, 'pgdata');
const backup = path.join(dataDir, 'backup.tar.gz');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function npmScript(script: 'db-backup' | 'db-restore', ...args: string[]) {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts', `${script}.ts`), ...args],
    {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, AYAH_DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 180_000,
    },
  );
  return { status: run.status, output: run.stdout + run.stderr };
}

type Database = Awaited<ReturnType<typeof openDatabase>>;

async function withDatabase<T>(fn: (database: Database) => Promise<T>) {
  const database = await openDatabase({ dataDir: pgdata });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

const emailsIn = async (db: Database['db']) =>
  (await db.select({ email: users.email }).from(users)).map((u) => u.email).sort();
const emails = () => withDatabase(({ db }) => emailsIn(db));

const userRow = (email: string) => ({ email, displayName: email.split('@')[0]! });

describe.skipIf(onPostgres)('db:backup and db:restore', () => {
  it(
    'round-trips the data, keeping the replaced database aside',
    { timeout: 400_000 },
    async () => {
      // (Each opening of the database costs a second or more: the steps share one where they can.)
      const database = await openMigrated(pgdata);
      try {
        await database.db
          .insert(users)
          .values([userRow('kept@example.com'), userRow('also-kept@example.com')]);
      } finally {
        await database.close();
      }

      // Over an older, world-readable file of that name: the backup is private all the same.
      writeFileSync(backup, 'an older file');
      chmodSync(backup, 0o644);
      const backedUp = npmScript('db-backup', backup);
      expect(backedUp.status, backedUp.output).toBe(0);
      expect(backedUp.output).toContain(`Backed up ${dataDir}/pgdata to ${backup}`);
      expect(statSync(backup).mode & 0o777).toBe(0o600);

      // Life goes on after the backup …
      const afterBackup = await withDatabase(async ({ db }) => {
        await db.insert(users).values(userRow('after-backup@example.com'));
        return emailsIn(db);
      });
      expect(afterBackup).toEqual([
        'after-backup@example.com',
        'also-kept@example.com',
        'kept@example.com',
      ]);

      // … and the restore brings back exactly the backed-up state.
      const restored = npmScript('db-restore', backup);
      expect(restored.status, restored.output).toBe(0);
      expect(await emails()).toEqual(['also-kept@example.com', 'kept@example.com']);
      const aside = readdirSync(dataDir).filter((name) =>
        name.startsWith('pgdata.before-restore-'),
      );
      expect(aside).toHaveLength(1);
      expect(restored.output).toContain(`kept in ${path.join(dataDir, aside[0]!)}`);
      // The restored files are private too.
      expect(statSync(pgdata).mode & 0o777).toBe(0o700);
    },
  );

  it('refuses to run while another process holds the data dir', { timeout: 200_000 }, async () => {
    const live = await openDatabase({ dataDir: pgdata }); // holds the lock, as a server would
    try {
      for (const [script, args] of [
        ['db-backup', [path.join(dataDir, 'other.tar.gz')]],
        ['db-restore', [backup]],
      ] as const) {
        const run = npmScript(script, ...args);
        expect(run.status, run.output).not.toBe(0);
        expect(run.output).toContain(`in use by another Ayah process (pid ${process.pid}`);
      }
      expect(existsSync(path.join(dataDir, 'other.tar.gz'))).toBe(false);
    } finally {
      await live.close();
    }
  });

  it('refuses a file that is not a backup, and a missing database', { timeout: 120_000 }, () => {
    const notBackup = npmScript('db-restore', path.join(root, 'package.json'));
    expect(notBackup.status).not.toBe(0);
    expect(notBackup.output).toContain('is not a backup made by db:backup');
    rmSync(pgdata, { recursive: true, force: true });
    const nothing = npmScript('db-backup', path.join(dataDir, 'empty.tar.gz'));
    expect(nothing.status).not.toBe(0);
    expect(nothing.output).toContain('There is no database in');
  });
});
