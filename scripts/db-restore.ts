/**
 * `npm run db:restore -- <file>`: loads a dump made by db:backup into the embedded database
 * (AYAH_DATA_DIR, default ./.data). The database already there is moved aside, never deleted. Stop the
 * server first: a live one holds the data dir's lock, and the restore refuses. With DATABASE_URL, use
 * pg_restore / psql instead.
 */
import path from 'node:path';

import { restoreDataDir } from '../server/db/backup';

async function main() {
  if (process.env.DATABASE_URL) {
    throw new Error(
      'DATABASE_URL is set: restore PostgreSQL with pg_restore or psql (see README).',
    );
  }
  const file = process.argv[2];
  if (!file) throw new Error('name the backup to restore: npm run db:restore -- <file>');
  const dataDir = path.resolve(process.env.AYAH_DATA_DIR || './.data');
  const pgdata = path.join(dataDir, 'pgdata');
  const movedTo = await restoreDataDir(pgdata, path.resolve(file));
  if (movedTo) console.log(`The database that was there is kept in ${movedTo}.`);
  console.log(`Restored ${file} into ${pgdata}.`);
}

main().catch((error: unknown) => {
  console.error('db:restore failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
