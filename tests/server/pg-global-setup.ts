/**
 * Global setup of the `server-pg` project: a throwaway PostgreSQL cluster on a free loopback port
 * (initdb + pg_ctl, as the `postgres` user when running as root), stopped and removed afterwards.
 * With DATABASE_URL set, that server is used instead (each test file creates its own database in it).
 * Without PostgreSQL binaries the pass is skipped, and says so — except under CI (`CI` set, as every
 * CI service does), where a skipped pass fails the run: some faults (a conversion without its user
 * lock) only show on a real PostgreSQL, since PGlite runs one transaction at a time.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import type { TestProject } from 'vitest/node';

import { openDatabase } from '../../server/db';

function findBinDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(base, versions[0], 'bin');
  }
  try {
    const initdb = execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim();
    return initdb ? path.dirname(initdb) : null;
  } catch {
    return null;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function userIds(name: string): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/** Under CI a PostgreSQL pass that cannot run is an error, not a skip. */
export function isCi(env: Record<string, string | undefined> = process.env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return !!ci && ci !== 'false' && ci !== '0';
}

/** The skip's message, or (under CI) the error that fails the run instead. */
export function skippedPass(why: string, env: Record<string, string | undefined> = process.env) {
  if (isCi(env)) {
    throw new Error(
      `PostgreSQL pass cannot run under CI: ${why} Install PostgreSQL or set DATABASE_URL; ` +
        'a skipped pass would let faults that only PostgreSQL shows through.',
    );
  }
  return `PostgreSQL pass skipped: ${why}`;
}

export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    console.log('PostgreSQL pass: using DATABASE_URL (one database per test file).');
    project.provide('ayahPgUrl', process.env.DATABASE_URL);
    return migratedTemplate(project, process.env.DATABASE_URL);
  }
  const skip = (why: string) => {
    console.warn(`\n${skippedPass(why)}\n`);
    project.provide('ayahPgUrl', '');
    project.provide('ayahPgTemplate', '');
  };
  // AYAH_TEST_NO_PG=1 plays a machine without PostgreSQL (tests/server/pg-skip.test.ts uses it).
  if (process.env.AYAH_TEST_NO_PG === '1')
    return skip('AYAH_TEST_NO_PG=1 (as if none were installed).');

  const bin = findBinDir();
  if (!bin) return skip('no initdb found (apt-get install postgresql, or set DATABASE_URL).');

  // PostgreSQL refuses to run as root: run it as `postgres`, in a directory that user owns.
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? userIds('postgres') : null;
  if (asRoot && !owner)
    return skip('running as root and there is no `postgres` user to run it as.');
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], {
          stdio: 'pipe',
        })
      : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' });

  const dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const started = Date.now();
  try {
    run('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses='127.0.0.1'",
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    run('pg_ctl', [
      '-D',
      data,
      '-o',
      options,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-t',
      '60',
      'start',
    ]);
  } catch (error) {
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`Could not start the test PostgreSQL: ${output}`);
  }
  const version = path.basename(path.dirname(bin));
  console.log(
    `PostgreSQL ${version} for the server-pg pass on 127.0.0.1:${port} (${Date.now() - started} ms)`,
  );
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  project.provide('ayahPgUrl', adminUrl);
  const stop = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch (error) {
      console.warn('Stopping the test PostgreSQL failed:', error);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await migratedTemplate(project, adminUrl);
  } catch (error) {
    stop();
    throw error;
  }
  return stop;
}

/** Runs `statement` on the server's admin database. */
async function admin(adminUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * One database migrated here, once, that each test file's database is created from
 * (`CREATE DATABASE … TEMPLATE`, `ayahPgTemplate`): a copy instead of every migration again in each
 * of the pass's files. Made afresh each run from the checked-in migrations; the harness still runs
 * `migrate()` on its copy (a no-op when nothing is new). Nothing stays connected to it, as a template
 * requires. Answers how to drop it.
 */
async function migratedTemplate(project: TestProject, adminUrl: string) {
  const name = `ayah_template_${process.pid}_${Date.now()}`;
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  const drop = () => admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.toString(), poolSize: 1 });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
  } catch (error) {
    await drop();
    throw error;
  }
  project.provide('ayahPgTemplate', name);
  return async () => {
    await drop().catch((error) => console.warn('Dropping the template database failed:', error));
  };
}
