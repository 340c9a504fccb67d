/** The database layer: migrations are idempotent, PGlite persists under the data dir, and several
 * servers may migrate one PostgreSQL at once. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import type { Database } from '../../../server/db';
import { openDatabase, pgErrorCode, UNIQUE_VIOLATION } from '../../../server/db';
import { users } from '../../../server/db/schema';
import { describeServer, freshPgDatabase, onPostgres, uniqueEmail } from '../harness';

/** An empty database of the pass's kind. */
async function scratchDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (!onPostgres) return { database: await openDatabase({ dataDir: null }), drop: async () => {} };
  const { url, drop } = await freshPgDatabase();
  return { database: await openDatabase({ url, poolSize: 2 }), drop };
}

describeServer('the database', () => {
  it.skipIf(onPostgres)(
    'persists PGlite under the data dir across restarts',
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-pglite-'));
      try {
        const email = uniqueEmail();
        const first = await openDatabase({ dataDir: dir });
        await first.migrate();
        await first.db.insert(users).values({ email, displayName: 'Persisted' });
        await first.close();
        const second = await openDatabase({ dataDir: dir });
        await second.migrate(); // nothing left to apply
        const [row] = await second.db.select().from(users).where(eq(users.email, email));
        expect(row?.displayName).toBe('Persisted');
        await second.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it.runIf(onPostgres)('lets several servers migrate one PostgreSQL at the same time', async () => {
    const { url, drop } = await freshPgDatabase();
    const handles = await Promise.all([1, 2, 3].map(() => openDatabase({ url, poolSize: 2 })));
    try {
      await Promise.all(handles.map((h) => h.migrate()));
      await handles[0]!.migrate();
      const [applied] = await handles[0]!.db
        .select({ n: sql<number>`count(*)::int` })
        .from(sql`drizzle.__drizzle_migrations`);
      expect(applied?.n).toBeGreaterThan(0);
      await handles[1]!.db.insert(users).values({ email: uniqueEmail(), displayName: 'Pg' });
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await drop();
    }
  });

  it('keeps emails unique whatever their case, in the database itself', async () => {
    const { database, drop } = await scratchDatabase();
    try {
      await database.migrate();
      const email = uniqueEmail();
      await database.db.insert(users).values({ email, displayName: 'A' });
      const error = await database.db
        .insert(users)
        .values({ email: email.toUpperCase(), displayName: 'B' })
        .then(() => null)
        .catch((e: unknown) => e);
      expect(pgErrorCode(error)).toBe(UNIQUE_VIOLATION);
    } finally {
      await database.close();
      await drop();
    }
  }, 60_000);
});
