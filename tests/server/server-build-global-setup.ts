/**
 * Global setup of the server projects: the server built as `npm start` runs it (server/build.mjs: one
 * plain ES module, no tsx), which the tests of a whole server process start (`ayahServerMain`,
 * server-process.ts). Through tsx, each of those processes compiled the server's modules again: about
 * 2 s of CPU more a start. Built afresh each run, in about a second.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built server's main.js (see startServer). */
    ayahServerMain: string;
  }
}

const root = path.resolve(import.meta.dirname, '../..');

export default async function setup(project: TestProject) {
  // Inside the repo (and ignored by git and the linters), where its imports find node_modules/.
  mkdirSync(path.join(root, '.test-results'), { recursive: true });
  const dir = mkdtempSync(path.join(root, '.test-results', 'server-build-'));
  const build = () =>
    promisify(execFile)(process.execPath, [path.join(root, 'server/build.mjs'), dir], {
      cwd: root,
    });
  try {
    await build();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  // Under `vitest` watch, each rerun gets the sources as they are now (built-workers.ts).
  project.onTestsRerun(async () => {
    await build();
  });
  project.provide('ayahServerMain', path.join(dir, 'main.js'));
  return () => rmSync(dir, { recursive: true, force: true });
}
