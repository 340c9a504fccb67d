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
 * The statistics PGlite does keep (pg_stat_all_tables) say which tables are past autovacuum's
 * default thresholds: dead rows over 50 + 20 % of its rows, or rows inserted since its last vacuum
 * over 1,000 + 20 % (so that an append-only table's visibility map stays current), or an oldest
 * unfrozen transaction past `autovacuum_freeze_max_age`: vacuumed and analyzed; or else rows changed
 * since its last analyze over 50 + 10 %: analyzed (never pg_statistic, which that changes again).
 * The system catalogs too. One table a statement, the most due first.
 *
 * PGlite runs one statement at a time, so a table's VACUUM holds up every other statement while it
 * runs: with 100,000 messages, 400 ms for the search chunks after a quarter of them changed. So what
 * is due waits for a quiet spell (UPKEEP_TIMING): no statement but the upkeep's own for 5 s since
 * the database last answered (`Database.idleMs`), which a lesson's sends rarely leave and a break
 * or the night always does. A pass stops between tables when a statement waits behind it. A
 * database that is never quiet is kept up anyway once a table has been due for an hour.
 *
 * On PostgreSQL this does nothing: its autovacuum does it, in processes of its own.
 */
import { sql } from 'drizzle-orm';

import type { Logger } from '../http/errors';
import type { Database } from './index';

/** A table is logged when it takes longer (autovacuum's `log_autovacuum_min_duration`). */
const LOG_SLOWER_THAN_MS = 1_000;

export interface TableUpkeep {
  schema: string;
  table: string;
  /** Vacuumed and analyzed; otherwise analyzed only. */
  vacuum: boolean;
}

/**
 * The tables due for a vacuum or an analyze now, by autovacuum's default thresholds, most due first:
 * the system catalogs too (not TOAST tables: they go with their own table), and a table whose oldest
 * unfrozen transaction is older than `autovacuum_freeze_max_age` (a VACUUM then freezes it).
 */
export async function tablesDue(db: Database['db']): Promise<TableUpkeep[]> {
  const result = await db.execute(sql`
    select schema, "table", vacuum from (
      select s.schemaname as schema, s.relname as "table", greatest(c.reltuples, 0) as n,
        s.n_dead_tup, s.n_ins_since_vacuum, s.n_mod_since_analyze,
        age(c.relfrozenxid) > current_setting('autovacuum_freeze_max_age')::int as old
      from pg_stat_all_tables s join pg_class c on c.oid = s.relid
      where s.schemaname <> 'pg_toast') t,
    lateral (select old or n_dead_tup > 50 + 0.2 * n or n_ins_since_vacuum > 1000 + 0.2 * n
      as vacuum) v
    -- Never pg_statistic for an analyze alone, as autovacuum: analyzing it changes it again.
    where vacuum or (n_mod_since_analyze > 50 + 0.1 * n
      and (schema, "table") <> ('pg_catalog', 'pg_statistic'))
    order by vacuum desc, greatest(n_dead_tup, n_mod_since_analyze) desc`);
  return (result as unknown as { rows: TableUpkeep[] }).rows;
}

/**
 * PGlite's statistics reach its views at most once a second; this has them there as soon as the
 * next statement ends (for a pass right after writes: a bench's seed, a test).
 */
export async function flushStatistics(db: Database['db']) {
  await db.execute(sql`select pg_stat_force_next_flush()`);
  await db.execute(sql`select 1`);
}

/** Vacuums (and analyzes) or analyzes one table. */
async function keep(db: Database['db'], { schema, table, vacuum }: TableUpkeep) {
  const name = sql`${sql.identifier(schema)}.${sql.identifier(table)}`;
  await db.execute(vacuum ? sql`vacuum (analyze) ${name}` : sql`analyze ${name}`);
}

/**
 * One pass: every table due (read now unless given), one after the other, while `goOn` says to
 * (asked before every table after the first). Answers what it kept up.
 */
export async function keepUp(
  db: Database['db'],
  logger: Pick<Logger, 'info' | 'error'>,
  due?: TableUpkeep[],
  goOn: () => boolean = () => true,
): Promise<TableUpkeep[]> {
  due ??= await tablesDue(db);
  const kept: TableUpkeep[] = [];
  for (const table of due) {
    if (kept.length > 0 && !goOn()) break;
    const started = performance.now();
    await keep(db, table);
    kept.push(table);
    const ms = performance.now() - started;
    if (ms > LOG_SLOWER_THAN_MS)
      logger.info(
        `[db] ${table.vacuum ? 'vacuumed' : 'analyzed'} ${table.table} in ${Math.round(ms)} ms`,
      );
  }
  return kept;
}

export interface UpkeepTiming {
  /** How often what is due is read. */
  checkMs: number;
  /** A pass waits for the database to have had no statement for this long. */
  quietMs: number;
  /** … but no longer than this once a table is due. */
  overdueMs: number;
}

/**
 * Every 10 s what is due is read; it is kept up once the database has had nothing else to do for 5 s
 * (a lesson's sends come seconds apart, a break or the night is quiet), or once it has been due for
 * an hour on a database that is never quiet.
 */
export const UPKEEP_TIMING: UpkeepTiming = {
  checkMs: 10_000,
  quietMs: 5_000,
  overdueMs: 60 * 60_000,
};

/**
 * On PGlite, what is due kept up at its first quiet spell (`timing`); answers how to stop (and wait
 * for the table under way). A pass stops between tables when a statement waits behind it (unless
 * overdue), and the rest waits for the next spell. A check that fails is logged, and the next one
 * tries again.
 */
export function startDatabaseUpkeep(
  database: Pick<Database, 'db' | 'kind' | 'idleMs'>,
  logger: Pick<Logger, 'info' | 'error'>,
  timing: UpkeepTiming = UPKEEP_TIMING,
): () => Promise<void> {
  if (database.kind !== 'pglite') return async () => {};
  /** How long the database has been idle; one that cannot say is never quiet. */
  const idleMs = () => database.idleMs() ?? 0;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  // On `performance.now()`'s clock: since when a table has been due (null: none is), and the quiet
  // spell, since the database's last statement that was not this upkeep's own.
  let dueSince: number | null = null;
  let quietSince = performance.now() - idleMs();
  let ownEnded = -Infinity;
  const check = async () => {
    const now = performance.now();
    const idle = idleMs();
    // Activity since this upkeep's own last statement was somebody else's: the spell starts after it.
    if (idle < now - ownEnded) quietSince = now - idle;
    const quiet = now - quietSince >= timing.quietMs;
    try {
      const due = await tablesDue(database.db);
      if (due.length === 0) {
        dueSince = null;
        return;
      }
      dueSince ??= now;
      const overdue = now - dueSince >= timing.overdueMs;
      if (!quiet && !overdue) return;
      const kept = await keepUp(
        database.db,
        logger,
        due,
        () => !stopped && (overdue || idleMs() > 0),
      );
      if (kept.length === due.length) dueSince = null;
    } finally {
      ownEnded = performance.now();
    }
  };
  const tick = () => {
    if (running) return;
    running = check()
      .catch((error: unknown) => logger.error('[db] upkeep failed:', error))
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, timing.checkMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
