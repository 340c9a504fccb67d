/**
 * `npm run db:backup [-- <file>]`: a dump of the embedded database (AYAH_DATA_DIR, default ./.data) into
 * <file> (default ./ayah-backup-<time>.tar.gz). Stop the server first: a live one holds the data dir's
 * lock, and the backup refuses. With DATABASE_URL, use pg_dump instead.
 */
import path from 'node:path';

import { backupDataDir } from '../server/db/backup';

async function main() {
  if (process.env.DATABASE_URL) {
    throw new Error('DATABASE_URL is set: back PostgreSQL up with pg_dump (see README).');
  }
  const dataDir = path.resolve(process.env.AYAH_DATA_DIR || './.data');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.resolve(process.argv[2] ?? `ayah-backup-${stamp}.tar.gz`);
  const bytes = await backupDataDir(path.join(dataDir, 'pgdata'), file);
  console.log(`Backed up ${dataDir}/pgdata to ${file} (${(bytes / 1024).toFixed(0)} KB).`);
}

main().catch((error: unknown) => {
  console.error('db:backup failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
