/**
 * A setup file of the server projects: the server's worker threads (the maths engines, the
 * embedded database) start from the build the global setup made of these same sources at the start
 * of the run (server-build-global-setup.ts), not from their `.ts` entries through tsx's loader,
 * which took five times the CPU to load the maths engines (server/threads.ts). That path stays
 * covered: maths-pool.test.ts runs a script without this variable, and pglite-thread.test.ts starts
 * one database thread without it. Under `vitest` watch, the build is made again before each rerun.
 */
import path from 'node:path';

import { inject } from 'vitest';

// Always this run's build: a value left in the shell may be an older one.
process.env.AYAH_WORKER_DIR = path.dirname(inject('ayahServerMain'));
