/**
 * A setup file of the server projects: the server's worker threads (the maths engines, the
 * embedded database) start from the build the global setup made of these same sources at the start
 * of the run (server-build-global-setup.ts), not from their `.ts` entries through tsx's loader,
 * which took three times the CPU to load the maths engines (server/threads.ts). Scripts a test
 * runs from the sources with a bare environment (db-backup.test.ts) or without this variable
 * (maths-pool.test.ts) still load theirs through tsx.
 */
import path from 'node:path';

import { inject } from 'vitest';

process.env.AYAH_WORKER_DIR ??= path.dirname(inject('ayahServerMain'));
