/**
 * What PostgreSQL's autovacuum does for a server, done for the embedded database (PGlite). PGlite
 * runs one backend and no autovacuum launcher, so until now nothing ever vacuumed or analyzed it
 * (`pg_stat_user_tables.last_autovacuum` stayed null):
 *
 * - an update leaves the old row behind, and every index entry of it. A send updates its session
 *   twice and rewrites a search chunk, whose two GIN indexes then take every trigram and character
 *   of the chunk again. GIN has no on-page pruning: those entries stayed for good, and every search
 *   read them and then the dead rows they point to;
 * - the free space map is only written by VACUUM, so space freed by a delete (a memory the tutor
 *   replaced, an expired token) was never reused and every insert grew the file;
 * - the planner never had statistics (`reltuples` -1): it planned from page counts and defaults.
 *
 * Every UPKEEP_INTERVAL_MS the statistics PGlite does keep are read, and each table past
 * autovacuum's default thresholds is vacuumed and analyzed, one table a statement, in the order of
 * its need: dead rows over 50 + 20 % of its rows, or rows inserted since its last vacuum over
 * 1,000 + 20 % (so that an append-only table's visibility map stays current), or else rows changed
 * since its last analyze over 50 + 10 % (analyzed only). PGlite runs one statement at a time, so a
 * table's VACUUM holds up every other statement while it runs, as any long statement does: a pass
 * touches only the tables due, which are a fraction of their size in dead rows.
 *
 * On PostgreSQL this does nothing: its autovacuum does it, in processes of its own.
 */
import { sql } from 'drizzle-orm';

import type { Logger } from '../http/errors';
import type { Database } from './index';

/** How often the statistics are read: autovacuum's `autovacuum_naptime`. */
export const UPKEEP_INTERVAL_MS = 60_000;
/** A table's pass is logged when it takes longer (autovacuum's `log_autovacuum_min_duration`). */
const LOG_SLOWER_THAN_MS = 1_000;

export interface TableUpkeep {
  schema: string;
  table: string;
  /** Vacuumed and analyzed; otherwise analyzed only. */
  vacuum: boolean;
}

/** The tables due for a vacuum or an analyze now, by autovacuum's default thresholds, most due first. */
export async function tablesDue(db: Database['db']): Promise<TableUpkeep[]> {
  const result = await db.execute(sql`
    select schema, "table", vacuum from (
      select s.schemaname as schema, s.relname as "table", greatest(c.reltuples, 0) as n,
        s.n_dead_tup, s.n_ins_since_vacuum, s.n_mod_since_analyze
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid) t,
    lateral (select n_dead_tup > 50 + 0.2 * n or n_ins_since_vacuum > 1000 + 0.2 * n as vacuum) v
    where vacuum or n_mod_since_analyze > 50 + 0.1 * n
    order by vacuum desc, greatest(n_dead_tup, n_mod_since_analyze) desc`);
  return (result as unknown as { rows: TableUpkeep[] }).rows;
}

/** Vacuums (and analyzes) or analyzes one table. */
async function keep(db: Database['db'], { schema, table, vacuum }: TableUpkeep) {
  const name = sql`${sql.identifier(schema)}.${sql.identifier(table)}`;
  await db.execute(vacuum ? sql`vacuum (analyze) ${name}` : sql`analyze ${name}`);
}

/** One pass: every table due, one after the other. Answers what it did. */
export async function keepUp(
  db: Database['db'],
  logger: Pick<Logger, 'info' | 'error'>,
): Promise<TableUpkeep[]> {
  const due = await tablesDue(db);
  for (const table of due) {
    const started = performance.now();
    await keep(db, table);
    const ms = performance.now() - started;
    if (ms > LOG_SLOWER_THAN_MS)
      logger.info(
        `[db] ${table.vacuum ? 'vacuumed' : 'analyzed'} ${table.table} in ${Math.round(ms)} ms`,
      );
  }
  return due;
}

/**
 * On PGlite, a pass now and every `intervalMs`; answers how to stop (and wait for a pass under way).
 * A pass that fails is logged, and the next one tries again.
 */
export function startDatabaseUpkeep(
  database: Pick<Database, 'db' | 'kind'>,
  logger: Pick<Logger, 'info' | 'error'>,
  intervalMs = UPKEEP_INTERVAL_MS,
): () => Promise<void> {
  if (database.kind !== 'pglite') return async () => {};
  let running: Promise<unknown> | null = null;
  const pass = () => {
    if (running) return;
    running = keepUp(database.db, logger)
      .catch((error: unknown) => logger.error('[db] upkeep failed:', error))
      .finally(() => (running = null));
  };
  pass();
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
