/**
 * Global setup of the `e2e` project: one migrated embedded database (a PGlite data dir), which each
 * test file's product starts on a copy of (`ayahPgdataTemplate`, used by startProduct). `npm start`
 * on an empty data dir makes a new cluster and runs every migration first, 5–9 s on a 2-core runner;
 * on a copy it opens in about one. The copy is made afresh each run from the checked-in migrations
 * (migrated-image.ts), and the server still migrates what it opens (a no-op when nothing is new).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { TestProject } from 'vitest/node';

import { openDatabase } from '../../server/db';
import { migratedImage } from '../server/migrated-image';
import { buildInBackground } from './product-build';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data dir to copy into each product's data dir (see startProduct). */
    ayahPgdataTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  // The app and the server, built while the rest of the run goes on (product-build.ts).
  const stopBuild = buildInBackground();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-e2e-template-'));
  const pgdata = path.join(dir, 'pgdata');
  // Unpacked from the migrated image the server project's setup has made (or makes now, alone).
  const database = await openDatabase({
    dataDir: pgdata,
    image: await migratedImage(),
    thread: false,
  });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  project.provide('ayahPgdataTemplate', pgdata);
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    await stopBuild();
  };
}
