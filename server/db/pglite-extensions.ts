/**
 * The extensions every PGlite of the server loads (PGlite loads extension modules up front, so each
 * `PGlite.create` names them): pg_trgm backs chat search (migration 0002). The server's database on
 * the main thread or in its worker thread, and the backup and restore scripts, open it with these.
 */
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export const PGLITE_EXTENSIONS = { pg_trgm };
