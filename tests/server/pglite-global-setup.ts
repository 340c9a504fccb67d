/**
 * Global setup of the `server` project: one migrated PGlite database, dumped to a file that each
 * worker's in-memory database starts from (`ayahPgliteImage`, pglite-lease.ts). A new cluster and
 * its migrations take 5–9 s in a fresh worker on a 2-core runner, loading the image about 3 s, and
 * the project has forty files. The image is made afresh each run from the checked-in migrations, and
 * the harness still runs `migrate()` on what it loads (a no-op when nothing is new).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { TestProject } from 'vitest/node';

import { migratedImage } from './migrated-image';

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-pglite-image-'));
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, await migratedImage());
  project.provide('ayahPgliteImage', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
