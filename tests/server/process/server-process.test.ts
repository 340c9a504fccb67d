/**
 * The server as a whole process on the embedded database (PGlite only: PostgreSQL has its own lock,
 * modes and shutdown):
 * - finding #1: a second server on the same data dir refuses to start, naming the first one's pid,
 *   and a stale lock (its pid dead) does not keep a server from starting;
 * - finding #4: the data dir is 0700 and every file in it 0600 after writes;
 * - graceful shutdown: SIGTERM in the middle of a stream of writes exits 0, and every write that was
 *   acknowledged is there after a restart.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';

import { openDatabase } from '../../../server/db';
import { lockFileOf } from '../../../server/db/data-dir';
import { learningMemories } from '../../../server/db/schema';
import { FakeOpenAI } from '../fake-openai';
import { onPostgres } from '../harness';
import { parseSse } from '../harness';
import type { ServerProcess } from '../server-process';
import { seedUsers, startServer } from '../server-process';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ayah-proc-'));
const pgdata = path.join(dataDir, 'pgdata');
const running: ServerProcess[] = [];
afterAll(async () => {
  for (const server of running) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(lockFileOf(pgdata), { force: true });
});

async function start(env: Record<string, string> = {}, options?: { waitReady?: boolean }) {
  const server = await startServer(dataDir, env, options);
  running.push(server);
  return server;
}

/** Every path under `dir` whose mode lets anyone but the owner in. */
function tooOpen(dir: string): string[] {
  const found: string[] = [];
  const walk = (p: string) => {
    const stat = statSync(p);
    const expected = stat.isDirectory() ? 0o700 : 0o600;
    if ((stat.mode & 0o777) !== expected) found.push(`${(stat.mode & 0o777).toString(8)} ${p}`);
    if (stat.isDirectory()) for (const entry of readdirSync(p)) walk(path.join(p, entry));
  };
  walk(dir);
  return found;
}

const store = (server: ServerProcess, token: string, text: string) =>
  fetch(`${server.url}/api/v1/vector/store-user-data`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });

describe.skipIf(onPostgres)('the server process on its embedded database', () => {
  // A student of their own for each writer below, and one more for the first test: a student may
  // store 30 learning memories a minute.
  let users: { id: string; token: string }[];
  let first: ServerProcess;

  it(
    'keeps the data dir private: 0700, every file 0600, after writes',
    { timeout: 240_000 },
    async () => {
      users = await seedUsers(pgdata, 9);
      // A data dir left open by hand or by an older version: the server closes it as it starts.
      chmodSync(dataDir, 0o755);
      mkdirSync(path.join(dataDir, 'outbox'), { mode: 0o755 });
      writeFileSync(path.join(dataDir, 'outbox', 'old.eml'), 'Subject: hello\n', { mode: 0o644 });
      expect(tooOpen(dataDir)).not.toEqual([]);
      first = await start();
      for (let i = 0; i < 20; i++) {
        expect((await store(first, users[8]!.token, `fractions ${i}`)).status).toBe(201);
      }
      expect(tooOpen(dataDir)).toEqual([]);
      // The lock beside the database names this process.
      const lock = JSON.parse(readFileSync(lockFileOf(pgdata), 'utf8'));
      expect(lock).toMatchObject({ pid: first.child.pid, host: os.hostname() });
    },
  );

  it(
    'refuses a second server on the same data dir, naming the first',
    { timeout: 120_000 },
    async () => {
      const second = await start({}, { waitReady: false });
      const waited = new Promise<'still running'>((resolve) =>
        setTimeout(() => resolve('still running'), 60_000).unref(),
      );
      const exit = await Promise.race([second.exited, waited]);
      expect(exit, 'the second server refuses to start').not.toBe('still running');
      expect(exit).not.toBe(0);
      expect(second.output()).toContain(
        `The data directory ${pgdata} is in use by another Ayah process (pid ${first.child.pid}`,
      );
      expect(second.output()).toMatch(/DATABASE_URL/);
      // The first is untouched.
      expect((await fetch(`${first.url}/api/v1/health`)).status).toBe(200);
    },
  );

  it(
    'on SIGTERM finishes what it acknowledged, closes the database and exits 0',
    { timeout: 240_000 },
    async () => {
      const acknowledged: string[] = [];
      let stop = false;
      const writer = async (n: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const reply = await store(first, users[n]!.token, `writer ${n} note ${i}`);
            if (reply.status === 201)
              acknowledged.push(((await reply.json()) as { id: string }).id);
          } catch {
            // Refused or cut: not acknowledged, so it may or may not be there.
            if (first.child.exitCode !== null) return;
            await new Promise((r) => setTimeout(r, 20));
          }
        }
      };
      const writers = Array.from({ length: 8 }, (_, n) => writer(n));
      const deadline = Date.now() + 60_000;
      while (acknowledged.length < 50) {
        if (Date.now() > deadline)
          throw new Error(`only ${acknowledged.length} writes acknowledged`);
        await new Promise((r) => setTimeout(r, 20));
      }
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      stop = true;
      await Promise.all(writers);
      expect(first.output()).toContain('SIGTERM: shutting down');
      expect(first.output()).toContain('Stopped.');
      // The lock went with it.
      expect(existsSync(lockFileOf(pgdata))).toBe(false);

      const database = await openDatabase({ dataDir: pgdata });
      try {
        const rows = await database.db
          .select({ id: learningMemories.id })
          .from(learningMemories)
          .where(inArray(learningMemories.id, acknowledged));
        expect(rows.length).toBe(acknowledged.length);
      } finally {
        await database.close();
      }
      expect(acknowledged.length).toBeGreaterThanOrEqual(50);
    },
  );

  it(
    'takes over a stale lock whose process is gone; on SIGTERM lets a streaming reply finish',
    { timeout: 240_000 },
    async () => {
      const gone = spawnSync(
        process.execPath,
        ['-e', 'process.stdout.write(String(process.pid))'],
        {
          encoding: 'utf8',
        },
      );
      const deadPid = Number(gone.stdout);
      writeFileSync(
        lockFileOf(pgdata),
        JSON.stringify({ pid: deadPid, host: os.hostname(), since: new Date().toISOString() }),
      );
      const model = await new FakeOpenAI().start();
      try {
        const server = await start({
          AYAH_LLM_BASE_URL: model.url,
          AYAH_LLM_MODEL: 'fake-tutor',
          AYAH_SHUTDOWN_GRACE_MS: '40000',
        });
        expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
        expect(JSON.parse(readFileSync(lockFileOf(pgdata), 'utf8')).pid).toBe(server.child.pid);

        // A reply that streams for 12 s: longer than the old shutdown's hard 10 s exit.
        const chunks = Array.from({ length: 24 }, (_, i) => `step ${i}. `);
        model.script({ kind: 'chunks', chunks, delayMs: 500 });
        const response = await fetch(`${server.url}/api/v1/chat/send/stream`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${users[0]!.token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ messages: [{ role: 'user', content: 'Explain 3/4 + 1/8' }] }),
        });
        expect(response.status).toBe(200);
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        let text = '';
        while (!text.includes('step 0.')) {
          const { value, done } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
        }
        const signalled = Date.now();
        server.child.kill('SIGTERM');
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
        }
        const last = parseSse(text).at(-1);
        expect(last?.event, text.slice(-500)).toBe('done');
        expect(last?.data.response).toContain('step 23.');
        expect(await server.exited).toBe(0);
        expect(Date.now() - signalled).toBeGreaterThan(10_000);
        expect(server.output()).toContain('Stopped.');
        await expect(fetch(`${server.url}/api/v1/health`)).rejects.toThrow();
      } finally {
        await model.close();
      }
    },
  );
});
