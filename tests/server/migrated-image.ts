/**
 * One migrated PGlite database as the bytes of its data dir (`dumpDataDir`), made once per run
 * from the checked-in migrations. vitest runs every project's global setup in its main process, one
 * after the other: the server project's (pglite-global-setup.ts) writes it to a file its workers
 * load, and the e2e project's (pgdata-global-setup.ts) unpacks it into the data dir its products
 * copy. A new cluster and its migrations took 7.5 s there, before any test could start; a data dir
 * from the image takes 1.6 s. Each project loads its global setups through a module runner of its
 * own, so this module is loaded once per project: the image is kept on `globalThis`, which they
 * share.
 */
import type { PGlite } from '@electric-sql/pglite';

import { openDatabase } from '../../server/db';

const KEY = Symbol.for('ayah.tests.migratedImage');
const shared = globalThis as { [KEY]?: Promise<Uint8Array<ArrayBuffer>> };

/** The image, a copy for each caller: a PGlite thread takes the buffer it is given. */
export async function migratedImage(): Promise<Uint8Array<ArrayBuffer>> {
  shared[KEY] ??= (async () => {
    // Made before any test runs: no request to keep moving, so PGlite needs no thread of its own.
    const database = await openDatabase({ dataDir: null, thread: false });
    try {
      await database.migrate();
      const client = (database.db as unknown as { $client: PGlite }).$client;
      const dump = await client.dumpDataDir('none');
      return new Uint8Array(await dump.arrayBuffer());
    } finally {
      await database.close();
    }
  })();
  return (await shared[KEY]).slice();
}
