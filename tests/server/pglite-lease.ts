/**
 * One PGlite a worker, lent to its server files one after another (the `server` project shares a
 * worker's modules, `isolate: false`). Opening a database from the migrated image (a thread, the
 * 42 MB image unpacked into fresh WASM memory) took 2.4–3.9 s of CPU, emptying the one already open
 * 60–130 ms: the project alone went from 537 to 363 s of CPU (292 → 203 s of wall time).
 *
 * A file gets the database as the image left it: every table emptied (`truncate … restart identity`),
 * and only when its schema is the image's (a test that created a function or a trigger and did not
 * drop it makes the next file open a database of its own). A second server in the same file, while
 * the first holds the lent one, opens its own as before. The listeners a file's server registered
 * hear nothing once it has given the database back.
 */
import { readFileSync } from 'node:fs';

import { sql } from 'drizzle-orm';

import type { Database } from '../../server/db';
import { openDatabase, rowsOf } from '../../server/db';

interface Shared {
  database: Database;
  /** The schema as the image made it (`schemaOf`). */
  schema: string;
  /** Every user table, for the truncate. */
  tables: string;
  lent: boolean;
}

let shared: Promise<Shared> | null = null;

/** A digest of what a file could leave behind besides rows: tables, indexes, functions, triggers. */
async function schemaOf(database: Database): Promise<string> {
  const [row] = rowsOf<{ digest: string }>(
    await database.db.execute(sql`
      select md5(string_agg(item, ',' order by item)) as digest from (
        select c.relkind::text || ':' || n.nspname || '.' || c.relname as item
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
        union all
        select 'f:' || n.nspname || '.' || p.proname || '(' || p.oid::regprocedure::text || ')'
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname not in ('pg_catalog', 'information_schema')
        union all
        select 't:' || tgrelid::regclass::text || '.' || tgname from pg_trigger where not tgisinternal
      ) as items`),
  );
  return row!.digest;
}

/** A new in-memory PGlite from the image, migrated (a no-op unless a migration is newer). */
async function openFromImage(imageFile: string): Promise<Database> {
  const database = await openDatabase({ dataDir: null, image: readFileSync(imageFile) });
  await database.migrate();
  return database;
}

async function open(imageFile: string): Promise<Shared> {
  const database = await openFromImage(imageFile);
  const [row] = rowsOf<{ tables: string }>(
    await database.db.execute(sql`
      select string_agg(format('%I.%I', schemaname, tablename), ', ') as tables
        from pg_tables where schemaname = 'public'`),
  );
  return { database, schema: await schemaOf(database), tables: row!.tables, lent: false };
}

/** Whether the lent database can be lent again: it answers, and its schema is still the image's. */
async function reusable(current: Shared): Promise<boolean> {
  try {
    return (await schemaOf(current.database)) === current.schema;
  } catch {
    return false;
  }
}

/** Leases one after another: two servers starting at once must not both take the free one. */
let turn: Promise<unknown> = Promise.resolve();

/**
 * A migrated, empty PGlite for one server of a test file: the worker's own when it is free, else one
 * of its own. Either way `close()` gives it back (or closes it).
 */
export function leasePglite(imageFile: string): Promise<Database> {
  const leased = turn.then(() => lease(imageFile));
  turn = leased.catch(() => {});
  return leased;
}

async function lease(imageFile: string): Promise<Database> {
  let current = shared && (await shared.catch(() => null));
  if (current?.lent) return openFromImage(imageFile);
  if (current && !(await reusable(current))) {
    await current.database.close().catch(() => {});
    current = null;
  }
  if (!current) {
    shared = open(imageFile);
    current = await shared;
  } else {
    await current.database.db.execute(
      sql.raw(`truncate ${current.tables} restart identity cascade`),
    );
  }
  current.lent = true;
  return lend(current);
}

function lend(current: Shared): Database {
  const { database } = current;
  let returned = false;
  return {
    ...database,
    notifications: {
      ...database.notifications,
      listen: (channel, listener) =>
        database.notifications.listen(channel, {
          notify: (payload) => returned || listener.notify(payload),
          live: (isLive) => returned || listener.live(isLive),
        }),
    },
    close: async () => {
      if (returned) return;
      returned = true;
      current.lent = false;
    },
  };
}
