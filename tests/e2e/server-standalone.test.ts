/**
 * The server installs and runs alone, as production would: server/ built (server/build.mjs) into a
 * scratch directory outside the repo, its package.json copied beside, `npm install --omit=dev`
 * there (from the registry, or npm's cache), a maths thread checking an equation (its engines are
 * bundled into maths-worker.js, not installed), and `node dist/main.js` on a scratch data dir
 * answering /api/v1/health. Nothing of the repo's node_modules is reachable from there, so an
 * undeclared dependency or a development-only one fails to load.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { freePort } from './product';

const root = path.resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'ayah-server-alone-'));
const dataDir = mkdtempSync(path.join(tmpdir(), 'ayah-server-data-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the server as its own package', () => {
  it('builds to plain JavaScript that imports only its declared dependencies', () => {
    // Into the scratch directory: server/dist/ is what the other e2e files' products run, side by side.
    const build = spawnSync(
      process.execPath,
      [path.join(root, 'server/build.mjs'), path.join(scratch, 'dist')],
      { cwd: root, encoding: 'utf8' },
    );
    expect(build.status, build.stderr).toBe(0);
    const main = readFileSync(path.join(scratch, 'dist/main.js'), 'utf8');
    expect(main).not.toMatch(/from ["'][./]*src\/lib/);
    expect(main).not.toMatch(/from ["']ayah-coach/);
    expect(existsSync(path.join(scratch, 'dist/migrations/meta/_journal.json'))).toBe(true);
  });

  it('installs with --omit=dev outside the repo and answers /api/v1/health', async () => {
    cpSync(path.join(root, 'server/package.json'), path.join(scratch, 'package.json'));
    const install = spawnSync(
      npm,
      ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd: scratch, encoding: 'utf8', timeout: 600_000 },
    );
    expect(install.status, install.stderr).toBe(0);
    // No development tool came along, nor the maths engines: they are bundled into maths-worker.js.
    for (const dev of ['typescript', 'esbuild', 'tsx', 'vitest', '@types/nodemailer', 'mathjs'])
      expect(existsSync(path.join(scratch, 'node_modules', dev)), dev).toBe(false);
    // A maths thread loads and checks an equation with what was installed.
    const maths = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '--eval',
        `import { Worker } from 'node:worker_threads';
        const worker = new Worker(new URL('./dist/maths-worker.js', 'file://${scratch}/'), { execArgv: [] });
        worker.on('message', (message) => {
          if (message === 'ready')
            worker.postMessage({ id: 1, name: 'check_math', input: { expression: '2x + 3 = 11' } });
          else { console.log(JSON.stringify(message)); void worker.terminate(); }
        });`,
      ],
      { cwd: scratch, encoding: 'utf8', timeout: 60_000 },
    );
    expect(maths.stderr).toBe('');
    expect(JSON.parse(maths.stdout)).toEqual({ id: 1, result: { solutions: 'x = 4' } });

    const port = await freePort();
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: scratch,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        AYAH_DATA_DIR: dataDir,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    try {
      const deadline = Date.now() + 120_000;
      let health: unknown;
      while (!health) {
        if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
        if (Date.now() > deadline) throw new Error(`no health answer:\n${output}`);
        health = await fetch(`http://127.0.0.1:${port}/api/v1/health`)
          .then((r) => (r.ok ? r.json() : undefined))
          .catch(() => undefined);
        if (!health) await new Promise((r) => setTimeout(r, 250));
      }
      expect(health).toMatchObject({ status: 'ok' });
      const doc = await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`).then((r) => r.json());
      expect(doc.openapi).toBe('3.1.0');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    // npm install from the registry (or its cache) on a shared machine.
  }, 600_000);
});
