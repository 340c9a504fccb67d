/**
 * The suite must not pass by skipping: under CI, a PostgreSQL pass that cannot run fails the run
 * (pg-global-setup.ts), while on a laptop without PostgreSQL it is skipped with a message.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { onPostgres } from '../harness';
import { isCi, skippedPass } from '../pg-global-setup';

const root = path.resolve(import.meta.dirname, '../../..');

describe.skipIf(onPostgres)('a skipped PostgreSQL pass', () => {
  it('is a skip on a developer machine and an error under CI', () => {
    expect(isCi({})).toBe(false);
    expect(isCi({ CI: 'false' })).toBe(false);
    expect(isCi({ CI: 'true' })).toBe(true);
    expect(isCi({ CI: '1' })).toBe(true);
    expect(skippedPass('no initdb.', {})).toBe('PostgreSQL pass skipped: no initdb.');
    expect(() => skippedPass('no initdb.', { CI: 'true' })).toThrow(
      /PostgreSQL pass cannot run under CI: no initdb\./,
    );
  });

  it(
    'fails a CI run of the server-pg project where PostgreSQL is missing',
    { timeout: 120_000 },
    () => {
      const env: Record<string, string | undefined> = {
        ...process.env,
        CI: 'true',
        AYAH_TEST_NO_PG: '1',
        DATABASE_URL: '',
        AYAH_TEST_DB: '',
        VITEST: undefined,
        VITEST_WORKER_ID: undefined,
        VITEST_POOL_ID: undefined,
        NODE_ENV: undefined,
      };
      const run = spawnSync(
        process.execPath,
        [
          path.join(root, 'node_modules/vitest/vitest.mjs'),
          'run',
          '--project',
          'server-pg',
          'tests/server/auth/password-boundary.test.ts',
          '--maxWorkers=1',
        ],
        { cwd: root, env, encoding: 'utf8', timeout: 110_000 },
      );
      const output = run.stdout + run.stderr;
      expect(run.status, output).not.toBe(0);
      expect(output).toContain('PostgreSQL pass cannot run under CI');
    },
  );
});
