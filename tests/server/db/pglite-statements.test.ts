/**
 * Named prepared statements for PGlite (server/db/pglite-statements.ts): what the worker runs every
 * statement with parameters through. Each statement is prepared once and then only bound, the
 * least recently used are closed past the capacity, a statement whose table changed is prepared
 * again, errors keep their codes and name the statement, and transactions keep PGlite's rules: a
 * statement inside sees its writes, one outside waits for its end. PGlite only.
 */
import type { Results } from '@electric-sql/pglite';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PreparedStatements } from '../../../server/db/pglite-statements';
import { preparedStatements } from '../../../server/db/pglite-statements';
import { onPostgres } from '../harness';

describe.skipIf(onPostgres)('PGlite prepared statements', () => {
  let client: PGlite;
  let statements: PreparedStatements;
  const INSERT = 'insert into notes (id, body) values ($1, $2)';
  const COUNT_OF = 'select count(*)::int as n from notes where id = $1';
  /** The names of the statements PostgreSQL holds for this connection. */
  const held = async () =>
    (
      await client.query<{ name: string; statement: string }>(
        'select name, statement from pg_prepared_statements order by name',
      )
    ).rows;

  beforeAll(async () => {
    client = await PGlite.create();
    statements = preparedStatements(client, 3);
    await client.exec('create table notes (id int primary key, body text)');
  });
  afterAll(async () => {
    await client?.close();
  });

  it('prepares a statement once, then only binds it', async () => {
    const sql = 'select $1::int + 1 as n';
    for (const value of [1, 2, 3]) {
      const result = await statements.query<{ n: number }>(sql, [value], undefined, undefined);
      expect(result.rows).toEqual([{ n: value + 1 }]);
      expect(result.fields).toEqual([{ name: 'n', dataTypeID: 23 }]);
    }
    const kept = await held();
    expect(kept.filter((s) => s.statement === sql)).toHaveLength(1);
    expect(kept[0]!.name).toMatch(/^ayah_\d+$/);
  });

  it('writes, counts the rows it changed and answers nulls', async () => {
    const first = await statements.query(INSERT, [1, 'one'], undefined, undefined);
    expect(first.affectedRows).toBe(1);
    await statements.query(INSERT, [2, null], undefined, undefined);
    const rows = await statements.query(
      'select id, body from notes where id = any($1::int[]) order by id',
      [[1, 2]],
      { rowMode: 'array' },
      undefined,
    );
    expect(rows.rows).toEqual([
      [1, 'one'],
      [2, null],
    ]);
  });

  it("keeps the caller's parsers", async () => {
    const at = '2026-11-26 10:00:00+00';
    const parsed = await statements.query<{ t: unknown }>(
      'select $1::timestamptz as t',
      [at],
      undefined,
      undefined,
    );
    expect(parsed.rows[0]!.t).toEqual(new Date('2026-11-26T10:00:00Z'));
    const text = await statements.query<{ t: unknown }>(
      'select $1::timestamptz as t',
      [at],
      { parsers: { 1184: (value: string) => value } },
      undefined,
    );
    expect(text.rows[0]!.t).toBe('2026-11-26 10:00:00+00');
  });

  it('keeps at most its capacity, closing the least recently used', async () => {
    const texts = [1, 2, 3, 4, 5].map((k) => `select $1::int * ${k} as n`);
    for (const text of texts) await statements.query(text, [2], undefined, undefined);
    // The second is used again: the third is now the oldest.
    await statements.query(texts[1]!, [2], undefined, undefined);
    await statements.query('select $1::int * 6 as n', [2], undefined, undefined);
    expect(statements.size).toBe(3);
    const kept = (await held()).map((s) => s.statement);
    expect(kept.sort()).toEqual([texts[1]!, texts[4]!, 'select $1::int * 6 as n'].sort());
  });

  it('runs a statement without parameters as PGlite does, keeping nothing', async () => {
    const before = await held();
    const result = await statements.query<{ n: number }>(
      'select count(*)::int as n from notes',
      [],
      undefined,
      undefined,
    );
    expect(result.rows).toEqual([{ n: 2 }]);
    expect(await held()).toEqual(before);
  });

  it('prepares a statement again when its table has changed under it', async () => {
    const sql = 'select * from notes where id = $1';
    expect((await statements.query(sql, [1], undefined, undefined)).rows).toEqual([
      { id: 1, body: 'one' },
    ]);
    const stale = (await held()).find((s) => s.statement === sql)!.name;
    await client.exec('alter table notes add column mood text');
    expect((await statements.query(sql, [1], undefined, undefined)).rows).toEqual([
      { id: 1, body: 'one', mood: null },
    ]);
    // The stale one is closed in PostgreSQL, not left behind.
    const names = (await held()).map((s) => s.name);
    expect(names).not.toContain(stale);
    expect(names.length).toBeLessThanOrEqual(3);
  });

  it("inside a transaction, answers a changed table's error as it is, and prepares anew after", async () => {
    const sql = 'select * from notes where id = $1';
    await client.exec('alter table notes add column weather text');
    const failed = await client
      .transaction(async (tx) => {
        await statements.query(sql, [1], undefined, tx);
      })
      .then(
        () => null,
        (e: unknown) => e as { code?: string },
      );
    // PostgreSQL's own refusal, not "current transaction is aborted" from a second try inside it.
    expect(failed?.code).toBe('0A000');
    expect((await statements.query(sql, [1], undefined, undefined)).rows).toEqual([
      { id: 1, body: 'one', mood: null, weather: null },
    ]);
  });

  it('keeps a statement apart for each set of parameter types', async () => {
    const sql = 'select pg_typeof($1)::text as t';
    const asInt = await statements.query<{ t: string }>(
      sql,
      ['7'],
      { paramTypes: [23] },
      undefined,
    );
    const asText = await statements.query<{ t: string }>(
      sql,
      ['7'],
      { paramTypes: [25] },
      undefined,
    );
    expect([asInt.rows[0]!.t, asText.rows[0]!.t]).toEqual(['integer', 'text']);
  });

  it('fails with the statement named and its code, keeping nothing of it', async () => {
    const size = statements.size;
    const sql = 'select body from nowhere where id = $1';
    const error = await statements.query(sql, [1], undefined, undefined).then(
      () => null,
      (e: unknown) => e as { code?: string; query?: string; params?: unknown[] },
    );
    expect(error).toMatchObject({ code: '42P01', query: sql, params: [1] });
    expect(statements.size).toBe(size);
    expect((await held()).some((s) => s.statement === sql)).toBe(false);
    // The connection is fine afterwards.
    const next = await statements.query<{ n: number }>(
      'select $1::int as n',
      [7],
      undefined,
      undefined,
    );
    expect(next.rows).toEqual([{ n: 7 }]);
  });

  it('runs inside a transaction, and makes a statement outside wait for its end', async () => {
    let outside: Promise<Results<{ n: number }>> | undefined;
    const seen: string[] = [];
    await client
      .transaction(async (tx) => {
        await statements.query(INSERT, [10, 'ten'], undefined, tx);
        const inside = await statements.query<{ n: number }>(COUNT_OF, [10], undefined, tx);
        expect(inside.rows).toEqual([{ n: 1 }]);
        outside = statements.query<{ n: number }>(COUNT_OF, [10], undefined, undefined);
        void outside.then(() => seen.push('outside'));
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen.push('rollback');
        await tx.rollback();
      })
      .catch(() => {});
    // Outside the transaction it ran after the rollback, and saw nothing of the insert.
    expect((await outside!).rows).toEqual([{ n: 0 }]);
    expect(seen).toEqual(['rollback', 'outside']);
  });

  it('rolls back a failed statement inside a transaction with the rest of it', async () => {
    await expect(
      client.transaction(async (tx) => {
        await statements.query(INSERT, [20, 'twenty'], undefined, tx);
        await statements.query(INSERT, [20, 'again'], undefined, tx);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const left = await statements.query<{ n: number }>(COUNT_OF, [20], undefined, undefined);
    expect(left.rows).toEqual([{ n: 0 }]);
  });
});
