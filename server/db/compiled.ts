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

type Run<K extends string> = (q: Queryable, values: Values<K>) => Promise<unknown>;

/** A raw statement rendered on its first run; runs it on `q` (a db or a transaction). */
export function compiled<K extends string>(build: (p: Placeholders<K>) => SQL): Run<K> {
  let query: Query | undefined;
  return (q, values) => {
    query ??= dialect.sqlToQuery(build(placeholders as unknown as Placeholders<K>));
    const { session } = q as unknown as { session: PgSession };
    return session.prepareQuery(query, undefined, undefined, false).execute(values);
  };
}

/**
 * A read of one domain that travels as a column of another's statement (issue 26: before the model
 * a send read the week's goals and recalled the student's memories in statements of their own, on
 * connections of their own; as columns of the question's statement they cost no statement, no round
 * trip and no connection). `sql` is a scalar expression (a subquery answering json, say) over the
 * column's own placeholders, which no other column or the statement sees; `values` fill them, and
 * `read` turns the column's value into what the reader answers. A column's `name` stands for its
 * `sql`: the same name, the same expression (a statement is rendered once for its names).
 */
export interface Column<T, K extends string = string> {
  name: string;
  sql: (p: Placeholders<K>) => SQL;
  values: Values<K>;
  read: (value: unknown) => T;
}

/** A column that reads a `T` (its placeholders' names are its own business). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ColumnOf<T> = Column<T, any>;
export type AnyColumn = ColumnOf<unknown>;

/** What each column of a list reads. */
export type ColumnValues<C extends readonly AnyColumn[]> = {
  -readonly [I in keyof C]: C[I] extends Column<infer T, infer _> ? T : never;
};

/**
 * `compiled` for a statement that selects `columns` besides its own: `build` puts `extra` (the
 * columns, each `, <sql> as "<name>"`) at the end of its select list. One rendering for each list of
 * column names; each column's placeholders are its name, a dot, then theirs.
 */
export function compiledWith<K extends string>(
  build: (p: Placeholders<K>, extra: SQL) => SQL,
): <C extends readonly AnyColumn[]>(
  q: Queryable,
  values: Values<K>,
  columns: C,
) => Promise<{ result: unknown; read: (row: Record<string, unknown>) => ColumnValues<C> }> {
  /**
   * By the columns' names, one after another (no key made a run): the statement, and each column's
   * placeholders as it names them.
   */
  interface Node {
    made?: { run: Run<string>; keys: [string, string][][] };
    next: Map<string, Node>;
  }
  const byNames: Node = { next: new Map() };
  return async (q, values, columns) => {
    let node = byNames;
    for (const { name } of columns) {
      let next = node.next.get(name);
      if (!next) node.next.set(name, (next = { next: new Map() }));
      node = next;
    }
    let made = node.made;
    if (!made) {
      made = node.made = {
        run: compiled<string>((p) =>
          build(
            p as Placeholders<K>,
            sql.join(
              columns.map(
                (column) =>
                  sql`, ${column.sql(scoped(column.name))} as ${sql.identifier(column.name)}`,
              ),
            ),
          ),
        ),
        // The statement's names of the placeholders, made once: names made again each run were
        // looked up in V8's string table each time (1.6% of the app's thread under a class's burst).
        keys: columns.map((column) =>
          Object.keys(column.values).map((key): [string, string] => [key, `${column.name}.${key}`]),
        ),
      };
    }
    const all: Record<string, unknown> = { ...values };
    columns.forEach((column, i) => {
      const own = column.values as Values<string>;
      for (const [key, named] of made.keys[i]!) all[named] = own[key];
    });
    return {
      result: await made.run(q, all),
      read: (row) =>
        columns.map((column) => column.read(row[column.name])) as ColumnValues<typeof columns>,
    };
  };
}

/** A column's placeholders: `p.userId` of the column `goals` is `sql.placeholder('goals.userId')`. */
const scoped = (name: string) =>
  new Proxy({} as Placeholders<string>, {
    get: (_, key: string) => (placeholders as Record<string, Placeholder>)[`${name}.${key}`],
  });

/** A json column's value: node-postgres and PGlite parse json, a driver may leave it as text. */
export function jsonOf(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}
