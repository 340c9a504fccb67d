/**
 * Raw statements rendered once (issue 26). drizzle renders a `sql` template into its text and
 * values on every run: it walks every fragment and asks each what it is. A send's seven such
 * statements were ~6% of the app's CPU (perf's samples of the app under sends). A `compiled`
 * statement is made once, with placeholders (`p.userId`) where its values go, and each run fills
 * them in, as drizzle's `.prepare()` does for its query builders; it runs as `db.execute` would,
 * answering the driver's result (`rowsOf`).
 *
 * Nothing but placeholders may vary: a statement made once serves every app in the process, so a
 * value from the configuration is a placeholder too, and a value that picks a fragment picks one
 * of several statements.
 */
import type { Placeholder, Query, SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { PgSession } from 'drizzle-orm/pg-core';
import { PgDialect } from 'drizzle-orm/pg-core';

import type { Queryable } from '.';

/** A statement's placeholders by name: `p.userId` is `sql.placeholder('userId')`. */
export type Placeholders<K extends string> = { readonly [P in K]: Placeholder<P> };

/** The values a run fills in, by placeholder. */
type Values<K extends string> = Readonly<Record<K, unknown>>;

const dialect = new PgDialect();
const placeholders = new Proxy({} as Record<string, Placeholder>, {
  get: (made, name: string) => (made[name] ??= sql.placeholder(name)),
});

/** A raw statement rendered on its first run; runs it on `q` (a db or a transaction). */
export function compiled<K extends string>(
  build: (p: Placeholders<K>) => SQL,
): (q: Queryable, values: Values<K>) => Promise<unknown> {
  let query: Query | undefined;
  return (q, values) => {
    query ??= dialect.sqlToQuery(build(placeholders as unknown as Placeholders<K>));
    const { session } = q as unknown as { session: PgSession };
    return session.prepareQuery(query, undefined, undefined, false).execute(values);
  };
}
