/**
 * The server's worker threads (the maths engines, the embedded database) started from their entry
 * files, whichever way the server runs:
 * - built (server/build.mjs), each entry is a plain ES module beside main.js (`maths-worker.js`);
 * - from the TypeScript sources (tsx, vitest), the entry is the `.ts` file itself, loaded through
 *   tsx's loader. Every module the thread imports then goes through that loader's own thread, the
 *   maths engines' thousand files included: the maths pool's two threads took 6 s and 11.5 s of CPU
 *   to load that way, against 1.2 s and 2.3 s built (where the engines are bundled in).
 *   `AYAH_WORKER_DIR`, when set, names a build of these same sources, whose entries are used
 *   instead. The tests set it to the build their global setup makes at the start of each run.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread on `entry`: the caller's `new URL('./name.ts', import.meta.url)`, which built is
 * `name.ts` beside main.js, where `name.js` is.
 */
export function startWorker(entry: URL, options: WorkerOptions = {}): Worker {
  const built = path.basename(fileURLToPath(entry)).replace(/\.ts$/, '.js');
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${built}`, entry), options);
  const workerDir = process.env.AYAH_WORKER_DIR;
  if (workerDir) return new Worker(path.resolve(workerDir, built), options);
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`,
    { ...options, eval: true },
  );
}
