/**
 * `npm run bench:export`: the server's peak memory while one large account is exported (issue 22
 * #9). A first child process seeds a PGlite data dir with one student holding `--messages` chat
 * messages (20,000 by default, in chats of 1,000, each ~1,500 characters, about a tutoring reply).
 * Then, for each export, a fresh child serves the real app over that data dir (a heap grown by an
 * earlier export or by the seed would hide the next one's growth), and the parent reads the child's
 * resident memory from /proc: idle, then its peak (VmHWM, reset through /proc/<pid>/clear_refs,
 * and sampled every 10 ms) while
 *
 *   - `GET /api/v1/auth/export` streams the document (read and dropped as it comes), or
 *   - the same document is served the whole-document way the route used before the stream: read
 *     whole into one string, parsed into one object and serialised again into one answer (a bench
 *     route of the child, `/whole`, fed by the same export; the old route held the rows as objects
 *     and their serialisation, which this copies).
 *
 * Prints each run; the last line is (medians over the rounds)
 *   `messages=<n> export_mb=<n> idle_mb=<n> stream_peak_mb=<n> whole_peak_mb=<n> growth_ratio=<x>`
 * where growth_ratio is the streamed peak's growth over idle divided by the whole document's.
 *
 *   npm run bench:export [-- --messages 20000 --rounds 3]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';
import { chatMessages, chatSessions } from '../../server/db/schema';
import { insertSignedInUser } from '../../tests/server/seed-user';
import { arg, startServer } from '../support';

const SELF = fileURLToPath(import.meta.url);
const MESSAGES = arg('messages', 20_000);
const ROUNDS = arg('rounds', 3);
const PER_CHAT = 1_000;
const MB = 1024 * 1024;
/** The seeding process and each server sign the student's token alike. */
const JWT_SECRET = 'bench-export-jwt-secret-of-at-least-32-characters';

/** A first child: one student with MESSAGES messages in `dataDir`, then it exits. */
async function seedChild(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir: path.join(dataDir, 'pgdata') });
  await database.migrate();
  const config = loadConfig({ AYAH_DATA_DIR: dataDir, AYAH_JWT_SECRET: JWT_SECRET });
  const { id, token } = await insertSignedInUser(database, config.jwtSecret, {
    email: 'export-bench@example.com',
    displayName: 'Export Bench',
  });
  // About the length of a tutoring reply with its steps.
  const text = 'Let us work through this fraction step by step, one line at a time. '.repeat(22);
  for (let c = 0; c * PER_CHAT < MESSAGES; c++) {
    const [chat] = await database.db
      .insert(chatSessions)
      .values({ userId: id, title: `Chat ${c}` })
      .returning();
    const count = Math.min(PER_CHAT, MESSAGES - c * PER_CHAT);
    for (let start = 0; start < count; start += 250) {
      const rows = Array.from({ length: Math.min(250, count - start) }, (_, i) => ({
        sessionId: chat!.id,
        userId: id,
        role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
        content: `${start + i}: ${text}`,
        createdAt: new Date(Date.UTC(2026, 0, 1) + (start + i) * 1000),
      }));
      await database.db.insert(chatMessages).values(rows);
    }
  }
  await database.close();
  process.stdout.write(`${JSON.stringify({ token })}\n`);
}

/**
 * The second child, the server measured: the app over the seeded data dir (seeded by another
 * process, so the seed leaves nothing in this one's heap), and the whole-document route beside it.
 */
async function serveChild(dataDir: string, token: string): Promise<void> {
  const app = await startServer({
    database: { dataDir: path.join(dataDir, 'pgdata') },
    env: { AYAH_JWT_SECRET: JWT_SECRET },
    name: 'ayah-bench-export-app-',
  });
  // The whole-document way: the export read whole, parsed, and serialised again as one answer.
  const whole = createServer((_request, response) => {
    void (async () => {
      const res = await fetch(`${app.url}/api/v1/auth/export`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const document: unknown = JSON.parse(await res.text());
      const body = JSON.stringify(document);
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    })().catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => whole.listen(0, '127.0.0.1', () => resolve()));
  const stop = () => {
    whole.close();
    void app.close().finally(() => process.exit(0));
  };
  process.stdin.on('end', stop).on('close', stop).resume();
  const wholeUrl = `http://127.0.0.1:${(whole.address() as AddressInfo).port}/whole`;
  process.stdout.write(`${JSON.stringify({ url: app.url, wholeUrl })}\n`);
}

/** Runs this file as a child with `args`; its first stdout line, parsed, and the process. */
async function child(args: string[]): Promise<[Record<string, string>, ChildProcess]> {
  const proc = spawn(process.execPath, ['--import', 'tsx', SELF, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`bench child ${args[0]} exited (${code})`)));
  });
  return [JSON.parse(line) as Record<string, string>, proc];
}

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN) * 1024;
}

/** Resets the child's peak to its current resident size (Linux: write 5 to clear_refs). */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function settle(pid: number): Promise<number> {
  // Let the child's memory calm down after its start.
  let last = status(pid, 'VmRSS');
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = status(pid, 'VmRSS');
    if (Math.abs(now - last) < MB) return now;
    last = now;
  }
  return last;
}

/** Reads `url` to its end, dropping the bytes; the child's peak resident size meanwhile. */
async function peakWhile(pid: number, url: string, token: string): Promise<[number, number]> {
  resetPeak(pid);
  let sampled = 0;
  const timer = setInterval(() => (sampled = Math.max(sampled, status(pid, 'VmRSS'))), 10);
  let bytes = 0;
  try {
    const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    for await (const chunk of res.body!) bytes += (chunk as Uint8Array).byteLength;
  } finally {
    clearInterval(timer);
  }
  return [Math.max(sampled, status(pid, 'VmHWM')), bytes];
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ayah-bench-export-'));
  let server: ChildProcess | undefined;
  try {
    console.log(`seeding one account with ${MESSAGES} messages…`);
    const [{ token }, seeder] = await child(['--seed', dataDir, '--messages', String(MESSAGES)]);
    await new Promise((resolve) =>
      seeder.exitCode === null ? seeder.once('exit', resolve) : resolve(null),
    );
    const growth = { stream: [] as number[], whole: [] as number[] };
    const idles: number[] = [];
    let size = 0;
    // Each export in a fresh server: a heap grown by an earlier export would hide the next one's.
    for (let round = 0; round < ROUNDS; round++)
      for (const mode of ['stream', 'whole'] as const) {
        const [{ url, wholeUrl }, proc] = await child(['--serve', dataDir, '--token', token!]);
        server = proc;
        const idle = await settle(proc.pid!);
        const target = mode === 'stream' ? `${url}/api/v1/auth/export` : wholeUrl!;
        const [peak, bytes] = await peakWhile(proc.pid!, target, token!);
        if (mode === 'stream') size = bytes;
        idles.push(idle);
        growth[mode].push(peak - idle);
        console.log(
          `${mode === 'stream' ? 'streamed      ' : 'whole document'}: idle ${(idle / MB).toFixed(0)} MB, peak ${(peak / MB).toFixed(0)} MB (+${((peak - idle) / MB).toFixed(1)} MB)`,
        );
        proc.stdin!.end();
        await new Promise((resolve) => proc.once('exit', resolve));
        server = undefined;
      }
    const idle = median(idles);
    const stream = median(growth.stream);
    const whole = median(growth.whole);
    console.log(
      `messages=${MESSAGES} export_mb=${(size / MB).toFixed(1)} idle_mb=${(idle / MB).toFixed(0)} stream_peak_mb=${((idle + stream) / MB).toFixed(0)} whole_peak_mb=${((idle + whole) / MB).toFixed(0)} growth_ratio=${(stream / whole).toFixed(2)}`,
    );
  } finally {
    if (server) {
      server.stdin!.end();
      await new Promise((resolve) => server!.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const role = process.argv.find((a) => a === '--seed' || a === '--serve');
const roleDir = role ? process.argv[process.argv.indexOf(role) + 1]! : '';
if (role === '--seed') await seedChild(roleDir);
else if (role === '--serve') {
  const i = process.argv.indexOf('--token');
  await serveChild(roleDir, process.argv[i + 1]!);
} else await main();
