/**
 * `npm run bench:class`: a whole class presses Enter at once. N students (made straight in the
 * database, each with a live session) each send one question to `POST /api/v1/chat/send/stream` in
 * the same instant; the model is a scripted OpenAI-compatible endpoint in a process of its own
 * (tests/server/fake-openai.ts: a 400-token reply, 100 chunks 25 ms apart). As the baseline, the same
 * N streams are taken straight from that endpoint in the same run, each burst after a warm-up burst of
 * up to 30 streams each way (`--cold`: three), the first after 1,500 quick sends through the app
 * (`warmJit`; none with `--cold`). For N = 30 and N = 300, on PGlite
 * and on PostgreSQL (`DATABASE_URL` as an admin URL, else a throwaway cluster like the server-pg
 * tests; skipped with a message where there is none), it prints time to first chunk p50/p95, the gap
 * between chunks p95/max, total time p95, failures, the server's peak RSS (and how far above its idle
 * RSS before the burst) and its longest event-loop delay (`monitorEventLoopDelay`). The last line:
 *
 *   class30_ttft_overhead_ms= class300_ttft_overhead_ms= class300_total_over_direct= class300_failed=
 *   class300_rss_mb= loop_delay_max_ms= pg_class300_ttft_overhead_ms=
 *
 * where an overhead is Ayah's p95 time to first chunk minus the endpoint's own p95 measured beside it,
 * `class300_*` are PGlite's, `class300_rss_mb` is the peak RSS above idle during that burst, and
 * `loop_delay_max_ms` is the longest event-loop delay of any burst.
 *
 * Below each burst: the client's own CPU a stream and the connections it opened, for both sides (the
 * same client code and connection pool for both: a fair baseline), on PGlite how long its thread was
 * busy (its event loop's active time: the one queue every send's statements wait in, steadier from
 * run to run than a burst's p95), how busy the machine's cores were and what each process took of
 * them (bench/class/machine.ts), over the whole burst and until 95% of the students had their first
 * words (the span the p95 overhead measures, the burst's busiest), the server's phases
 * (bench/class/phases.ts), and the burst on one clock: the client's stages (request sent, written,
 * the response's head, its first chunk) beside the server's phases.
 *
 * The app, the endpoint and this client each run in a process of their own (as bench:server explains,
 * a client in the server's process hides what the server costs); PostgreSQL takes its share of the
 * two cores on the PostgreSQL runs. The app holds each client address to
 * `AYAH_CONNECTIONS_PER_ADDRESS` connections as main.ts does: every student here comes from
 * 127.0.0.1, as a school's do from its NAT address.
 *
 *   npm run bench:class [-- --sizes 30,300 --db pglite,pg]
 *   npm run bench:class -- --processes 2     # also 300 streams over two app processes on one PostgreSQL
 *   npm run bench:class -- --profile profiles  # the app under `node --cpu-prof` (files there)
 *   npm run bench:class -- --untraced          # the app without the send trace (no phase report)
 *   npm run bench:class -- --warm              # each student's connection opened before the burst
 *   npm run bench:class -- --cold              # no warm-up burst: the first burst meets cold code
 *   npm run bench:class -- --history 20        # each student goes on with a chat of 20 messages
 *   npm run bench:class -- --memories 2000     # each student with 2,000 learning memories
 *   npm run bench:class -- --repeat 5          # each burst 5 times, the median kept (3 by default)
 *   npm run bench:class -- --floor             # also the floor: a bare relay in the app's place
 *   npm run bench:class -- --endpoint-keep-alive 5  # the endpoint closes idle connections after 5 s
 *   npm run bench:class -- --plain-node        # the app without npm start's Node flags
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import pg from 'pg';

import { SERVER_NODE_FLAGS } from '../../scripts/server-flags.mjs';
import startPostgres from '../../tests/server/pg-global-setup';
import { arg } from '../support';
import type { CpuShare } from './machine';
import { cpuMeter, describeShare } from './machine';
import { type ClientView, type PhaseReport, printPhases, printTimeline } from './phases';
import { ENDPOINT_KEEP_ALIVE_S, QUICK_QUESTION, REPLY_CHUNKS, serveChild } from './serve';

const SELF = fileURLToPath(import.meta.url);
const text = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
};
const SIZES = text('sizes', '30,300').split(',').map(Number);
const DATABASES = text('db', 'pglite,pg').split(',');
const PROCESSES = arg('processes', 1);
/**
 * `--repeat N`: each burst N times (3 by default); the figures kept are those of the burst with the
 * median overhead, as one burst's p95 of 30 streams is its 29th stream and moves by ±50 ms run to run.
 */
const REPEAT = Math.max(1, arg('repeat', 3));
/** `--untraced`: the app without AYAH_TRACE_SENDS (its async hooks cost CPU; no phase report then). */
const UNTRACED = process.argv.includes('--untraced') ? ['--untraced'] : [];
/**
 * `--warm`: each student's connection is open before the burst (one request each, on both sides),
 * as when students have the app open on kept-alive connections, or behind a proxy that keeps its
 * own connections to the app. Without it every send opens a connection, and Node 20's libuv
 * accepts one connection per turn of a busy event loop (libuv#3696).
 */
const WARM = process.argv.includes('--warm');
/**
 * `--cold`: no warm-up burst before each measured one (three streams only), so the first burst
 * also measures V8 compiling the send's code and the database's first plans.
 */
const COLD = process.argv.includes('--cold');
/**
 * `--history M`: each student goes on with a chat of M earlier messages (questions and 400-token
 * replies in turn, seeded with their search chunks), as in the middle of a lesson; without it each
 * send starts a new chat.
 */
const HISTORY = arg('history', 0);
/**
 * `--memories K`: each student starts with K learning memories (a reply stores one; a student keeps
 * at most 2,000), questions of a few topics, a third of them sharing words with the bench's.
 */
const MEMORIES = arg('memories', 0);
/** Each student's chat under `--history`, by token. */
const chatOf = new Map<string, string>();
/**
 * `--floor`: each size's bursts also through a bare relay of the model's stream in the app's place
 * (serve.ts `relay`: no database, sign-in, safety or prompt), first. What it adds over the endpoint is
 * what any server there adds on this machine, so the app's own share is the difference. Its figures
 * have a line of their own and count for none of the app's.
 */
const FLOOR = process.argv.includes('--floor');
/** `--endpoint-keep-alive s`: how long the endpoint keeps an idle connection (serve.ts). */
const ENDPOINT_KEEP_ALIVE = arg('endpoint-keep-alive', ENDPOINT_KEEP_ALIVE_S);
/**
 * `--plain-node`: the app (and the relay) without `npm start`'s Node flags for the server
 * (scripts/server-flags.mjs), to see what they change.
 */
const NODE_FLAGS = process.argv.includes('--plain-node') ? [] : SERVER_NODE_FLAGS;
const profileAt = process.argv.indexOf('--profile');
const PROFILE_DIR =
  profileAt === -1 ? null : path.resolve(process.argv[profileAt + 1] ?? 'profiles');

interface Child {
  pid: number;
  shown: Record<string, unknown>;
  ask(line: string): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/**
 * Starts this file with `--serve …` in a child process and reads its first line. A `server` (the app,
 * the relay) runs with the flags `npm start` gives the server (unless `--plain-node`), and under
 * `--profile` with the profiler.
 */
async function child(argv: string[], server = false): Promise<Child> {
  const flags = server
    ? [...NODE_FLAGS, ...(PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [])]
    : [];
  const proc: ChildProcess = spawn(
    process.execPath,
    [...flags, '--import', 'tsx', SELF, '--serve', ...argv],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code) => resolve(code)),
  );
  const lines: Interface = createInterface({ input: proc.stdout! });
  const next = () =>
    Promise.race([
      new Promise<string>((resolve) => lines.once('line', resolve)),
      exited.then((code) => {
        throw new Error(`bench:class child (${argv[0]}) exited (${code})`);
      }),
    ]);
  const shown = JSON.parse(await next()) as Record<string, unknown>;
  return {
    pid: proc.pid!,
    shown,
    ask: async (line) => {
      const answer = next();
      proc.stdin!.write(`${line}\n`);
      return JSON.parse(await answer) as Record<string, number>;
    },
    stop: async () => {
      proc.stdin!.end();
      const code = await exited;
      if (code !== 0) throw new Error(`bench:class child exited with ${code}`);
    },
  };
}

/** One stream's timings (ms from the moment it was sent), or its failure. */
interface Timing {
  ttft: number;
  gaps: number[];
  total: number;
  chunks: number;
  failure?: string;
  /** When each stage of the request ended, in wall-clock ms (the clock the server's trace gives). */
  stages: Partial<Record<ClientStage, number>>;
}

/**
 * The client's stages of a stream: the request sent (`http.request` called), written (its body handed
 * to the socket: the request's `finish`), the response's head read, and its first chunk of text read.
 */
const CLIENT_STAGES = ['sent', 'written', 'head', 'firstChunk'] as const;
type ClientStage = (typeof CLIENT_STAGES)[number];
const clock = () => performance.timeOrigin + performance.now();
/** Told each time a stream's first text arrives (`measured` counts them toward the p95's). */
let firstTextHeard: (() => void) | null = null;

/**
 * The client is Node's own `http`: a `data` event a chunk, no promise or web stream a read. It shares
 * the machine's two cores with the server it measures, and `fetch` took 2.5 times its CPU a stream
 * (5.6–6.7 ms against 1.8–2.3 at 300 at once): CPU a class's own devices spend, not the server's
 * machine. Its connection pool is the same for both sides: a keep-alive agent with no cap, made anew
 * before each burst (`freshPool`), so that every burst opens its connections as a class would.
 */
// Every idle connection kept (Node's agent keeps 256 a host by default): `--warm` opens 300.
const newPool = () => new http.Agent({ keepAlive: true, maxFreeSockets: Infinity });
let pool = newPool();
let connectionsOpened = 0;
function freshPool() {
  pool.destroy();
  pool = newPool();
}
/** A stream that has not ended after this long fails (a stalled server must not hang the bench). */
const STREAM_TIMEOUT_MS = 120_000;

/**
 * Sends `body` to `url` and reads the server-sent-event stream as it arrives: `isText(block)` says
 * whether an event carries reply text, `isEnd(block)` whether it ends the reply, `isFailure(block)`
 * whether it is an error event.
 */
function timed(
  url: string,
  headers: Record<string, string>,
  body: string,
  isText: (block: string) => boolean,
  isEnd: (block: string) => boolean,
  isFailure: (block: string) => boolean,
): Promise<Timing> {
  const started = performance.now();
  const timing: Timing = { ttft: NaN, gaps: [], total: NaN, chunks: 0, stages: { sent: clock() } };
  return new Promise((resolve) => {
    let settled = false;
    const settle = (failure?: string) => {
      if (settled) return;
      settled = true;
      if (failure !== undefined && !timing.failure) timing.failure = failure;
      resolve(timing);
    };
    const request = http.request(
      url,
      { method: 'POST', agent: pool, headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        timing.stages.head = clock();
        response.setEncoding('utf8');
        // Settles once whatever happens to the connection (a no-op after `end`).
        response.on('close', () =>
          settle(response.complete ? undefined : 'the stream was cut off'),
        );
        let buffer = '';
        if (response.statusCode !== 200) {
          response.on('data', (text: string) => (buffer += text));
          response.on('end', () => settle(`${response.statusCode} ${buffer}`));
          return;
        }
        let last = 0;
        let ended = false;
        response.on('data', (text: string) => {
          const now = performance.now() - started;
          buffer += text;
          let at: number;
          while ((at = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            if (isFailure(block)) timing.failure = block;
            if (isText(block)) {
              if (timing.chunks === 0) {
                timing.ttft = now;
                timing.stages.firstChunk = performance.timeOrigin + started + now;
                firstTextHeard?.();
              } else timing.gaps.push(now - last);
              last = now;
              timing.chunks++;
            }
            if (isEnd(block)) ended = true;
          }
        });
        response.on('end', () => {
          timing.total = performance.now() - started;
          settle(ended ? undefined : 'the stream ended without its last event');
        });
        response.on('error', (error) => settle(error.message));
      },
    );
    request.setTimeout(STREAM_TIMEOUT_MS, () =>
      request.destroy(new Error(`no end within ${STREAM_TIMEOUT_MS} ms`)),
    );
    request.on('socket', () => {
      if (!request.reusedSocket) connectionsOpened++;
    });
    request.on('finish', () => (timing.stages.written ??= clock()));
    request.on('error', (error) => settle(error.message));
    request.end(body);
  });
}

const question = (i: number, sessionId?: string, start = '') => ({
  messages: [{ role: 'user', content: `${start}Student ${i}: how do I add 3/4 and 5/6?` }],
  ...(sessionId && { sessionId }),
});

/** One stream through the app: student `i`'s question, or with `quick` a `warmJit` send. */
function throughAyah(url: string, token: string, i: number, quick = false) {
  return timed(
    `${url}/api/v1/chat/send/stream`,
    { authorization: `Bearer ${token}` },
    JSON.stringify(
      quick ? question(i, undefined, `${QUICK_QUESTION} `) : question(i, chatOf.get(token)),
    ),
    (block) => block.startsWith('event: chunk'),
    (block) => block.startsWith('event: done'),
    (block) => block.startsWith('event: error'),
  );
}

function direct(endpoint: string, i: number) {
  return timed(
    `${endpoint}/chat/completions`,
    {},
    JSON.stringify({ model: 'bench-tutor', stream: true, ...question(i) }),
    (block) => block.includes('"content"'),
    (block) => block.includes('[DONE]'),
    () => false,
  );
}

/**
 * One warm-up stream, read to its end on a connection of its own that is closed after it (not
 * the client's pool): the burst after it opens its connections as it would have without a warm-up.
 */
function warmUp(url: string, token: string | null, body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          connection: 'close',
          ...(token && { authorization: `Bearer ${token}` }),
        },
      },
      (response) => {
        response.resume();
        response.once('end', () =>
          response.statusCode === 200
            ? resolve()
            : reject(new Error(`bench:class warm-up: ${url} answered ${response.statusCode}`)),
        );
        response.once('error', reject);
      },
    );
    request.once('error', reject);
    request.end(JSON.stringify(body));
  });
}

/**
 * Sends made through each app before its first measured burst (unless `--cold`), WARM_AT_ONCE at a
 * time, each answered at once by the endpoint (serve.ts `QUICK_QUESTION`), in new chats of the
 * students: most of the send's code optimized by V8, as in a server that has served the school a
 * while. The warm-up burst of 30 before each measured one alone did not do that: V8's code log
 * (`--log-code`) showed TurboFan optimizing 36–47 of the send's functions for the first time
 * (`IncomingMessage`, `authenticate`, `storeQuestion` …) in the second and third measured bursts of
 * 300 on PostgreSQL, its threads busy a third as long again as the app's main thread until 95% had
 * their first words (perf). A function run once a send is optimized only after hundreds of sends.
 * With these, 20–24 functions a burst were left, and TurboFan's threads took 12–18% as long as the
 * main thread in that span.
 */
const WARM_SENDS = 1500;
const WARM_AT_ONCE = 30;

async function warmJit(apps: Child[], tokens: string[]) {
  for (const app of apps) {
    let next = 0;
    await Promise.all(
      Array.from({ length: WARM_AT_ONCE }, async () => {
        for (let i = next++; i < WARM_SENDS; i = next++) {
          const { failure } = await throughAyah(
            String(app.shown.url),
            tokens[i % tokens.length]!,
            i,
            true,
          );
          if (failure) throw new Error(`bench:class JIT warm-up: ${failure}`);
        }
      }),
    );
    await app.ask('settle');
  }
}

/** Where the `p`th percentile of `count` values stands once they are sorted (0: the smallest). */
const percentileAt = (count: number, p: number) =>
  Math.min(count - 1, Math.floor((p / 100) * count));

function percentile(values: number[], p: number): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[percentileAt(sorted.length, p)]!;
}

interface Summary {
  ttftP50: number;
  ttftP95: number;
  gapP95: number;
  gapMax: number;
  totalP95: number;
  failed: number;
}

function summarise(timings: Timing[]): Summary {
  const ok = timings.filter((t) => !t.failure && t.chunks === REPLY_CHUNKS.length);
  const gaps = ok.flatMap((t) => t.gaps);
  return {
    ttftP50: percentile(
      ok.map((t) => t.ttft),
      50,
    ),
    ttftP95: percentile(
      ok.map((t) => t.ttft),
      95,
    ),
    gapP95: percentile(gaps, 95),
    gapMax: gaps.length ? Math.max(...gaps) : NaN,
    totalP95: percentile(
      ok.map((t) => t.total),
      95,
    ),
    failed: timings.length - ok.length,
  };
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '–').padStart(6);

function row(label: string, s: Summary, extra = '') {
  console.log(
    `${label.padEnd(26)} ttft p50 ${ms(s.ttftP50)}  p95 ${ms(s.ttftP95)}   gap p95 ${ms(s.gapP95)}  max ${ms(s.gapMax)}   total p95 ${ms(s.totalP95)}   failed ${String(s.failed).padStart(3)}${extra}`,
  );
}

/** The scripted endpoint's process (its CPU is the baseline's, and Ayah's runs' too). */
let endpointPid = 0;

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Burst {
  n: number;
  ayah: Summary;
  direct: Summary;
  overhead: number;
  totalRatio: number;
  peakRssMb: number;
  rssAboveIdleMb: number;
  loopMaxMs: number;
}

/** N streams straight from the endpoint, then N through the app processes, all at once each time. */
async function burst(
  label: string,
  n: number,
  endpoint: string,
  apps: Child[],
  tokens: string[],
  side = 'through Ayah',
) {
  // Warm-up, so that JIT and connection pools are not what is measured: a burst of its own each way
  // (up to 30 streams of the whole reply, after `warmJit`'s quick sends), or with `--cold` only
  // three streams, the first burst finding the code cold.
  await Promise.all(
    [0, 1, 2].flatMap((i) => [
      direct(endpoint, i),
      ...apps.map((a, k) => throughAyah(String(a.shown.url), tokens[k * 3 + i]!, i)),
    ]),
  );
  if (!COLD) {
    const size = Math.min(n, 30);
    await Promise.all(
      Array.from({ length: size }, (_, i) =>
        warmUp(`${endpoint}/chat/completions`, null, {
          model: 'bench-tutor',
          stream: true,
          ...question(i),
        }),
      ),
    );
    await Promise.all(
      Array.from({ length: size }, (_, i) =>
        warmUp(
          `${String(apps[i % apps.length]!.shown.url)}/api/v1/chat/send/stream`,
          tokens[apps.length * 3 + i]!,
          question(i, chatOf.get(tokens[apps.length * 3 + i]!)),
        ),
      ),
    );
  }
  // The measured bursts open their own connections (or `--warm`'s, below).
  freshPool();
  if (WARM) {
    const open = (url: string) =>
      new Promise<void>((resolve, reject) =>
        http
          .get(url, { agent: pool }, (response) =>
            response
              .resume()
              .once('close', () => (response.complete ? resolve() : reject(new Error(url)))),
          )
          .once('error', reject),
      );
    await Promise.all(Array.from({ length: n }, () => open(`${endpoint}/models`)));
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        open(`${String(apps[i % apps.length]!.shown.url)}/api/v1/health`),
      ),
    );
  }
  // What the warm-ups left for the app's quiet spell (the search filing) is done before the
  // baseline, not during it.
  for (const app of apps) await app.ask('settle');
  const load = loadAverage();
  // The client's own cost of each side (its CPU a stream, the connections it opened): the same
  // code and the same connection pool for both, so the baseline is a fair one.
  const measured = async (streams: () => Promise<Timing[]>, app: Child[] = []) => {
    const cpu = process.cpuUsage();
    const opened = connectionsOpened;
    const meter = cpuMeter({
      ...(app.length > 0 && { app: app.map((a) => a.pid) }),
      endpoint: [endpointPid],
      client: [process.pid],
    });
    // The machine until the stream at the p95 of first words had them (the one `summarise` takes
    // as the p95): the average over the whole burst hides that the streams' start is its busiest.
    let firstWords: CpuShare | undefined;
    let heard = 0;
    firstTextHeard = () => {
      if (heard++ === percentileAt(n, 95)) firstWords = meter?.stop();
    };
    const start = clock();
    const timings = await streams();
    firstTextHeard = null;
    const machine = meter?.stop();
    const used = process.cpuUsage(cpu);
    return {
      machine,
      firstWords,
      timings,
      view: {
        start,
        stages: Object.fromEntries(
          CLIENT_STAGES.map((stage) => [
            stage,
            timings.flatMap((t) => (t.stages[stage] === undefined ? [] : [t.stages[stage]])),
          ]),
        ),
      } as ClientView,
      cpuMs: (used.user + used.system) / 1000 / n,
      connections: connectionsOpened - opened,
    };
  };
  const straightRun = await measured(() =>
    Promise.all(Array.from({ length: n }, (_, i) => direct(endpoint, i))),
  );
  const straight = summarise(straightRun.timings);
  for (const app of apps) await app.ask('reset');
  const idle = await Promise.all(apps.map((a) => a.ask('stats')));
  const throughRun = await measured(
    () =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          throughAyah(String(apps[i % apps.length]!.shown.url), tokens[apps.length * 3 + i]!, i),
        ),
      ),
    apps,
  );
  const through = throughRun.timings;
  const stats = await Promise.all(apps.map((a) => a.ask('stats')));
  // The search filing the burst left for the app's next quiet spell, done now: its time is not in
  // the burst's figures, so it is shown beside them.
  const settleMs = Math.max(
    ...(await Promise.all(apps.map((a) => a.ask('settle')))).map((s) => s.settleMs!),
  );
  const ayah = summarise(through);
  const failures = through.filter((t) => t.failure).map((t) => t.failure!);
  const peakRssMb = stats.reduce((sum, s) => sum + s.peakRssMb!, 0);
  const idleRssMb = idle.reduce((sum, s) => sum + s.rssMb!, 0);
  const loopMaxMs = Math.max(...stats.map((s) => s.loopMaxMs!));
  // The app's CPU time a stream: steadier than wall time on a shared machine.
  const cpuPerStream = stats.reduce((sum, s) => sum + s.cpuMs!, 0) / n;
  // PGlite's thread, busy running statements: the one queue every send of a burst waits in.
  const dbThreadMs = stats.every((s) => s.dbThreadMs !== undefined)
    ? stats.reduce((sum, s) => sum + s.dbThreadMs!, 0)
    : null;
  const result: Burst = {
    n,
    ayah,
    direct: straight,
    overhead: ayah.ttftP95 - straight.ttftP95,
    totalRatio: ayah.totalP95 / straight.totalP95,
    peakRssMb,
    rssAboveIdleMb: peakRssMb - idleRssMb,
    loopMaxMs,
  };
  console.log(`\n${label}, ${n} students at once (load average ${load}):`);
  row('  straight from endpoint', straight);
  row(
    `  ${side}`,
    ayah,
    `   rss peak ${peakRssMb.toFixed(0)} MB (+${result.rssAboveIdleMb.toFixed(0)} above idle)   loop delay max ${loopMaxMs.toFixed(1)} ms`,
  );
  console.log(
    `  overhead: ttft p95 +${result.overhead.toFixed(0)} ms, total p95 ×${result.totalRatio.toFixed(3)}; app CPU ${cpuPerStream.toFixed(1)} ms a stream` +
      (dbThreadMs === null
        ? ''
        : ` (PGlite's thread busy ${(dbThreadMs / n).toFixed(2)} ms a stream, ${dbThreadMs.toFixed(0)} ms in all)`),
  );
  if (settleMs >= 1)
    console.log(
      `  search filing the burst left for the next quiet spell: ${settleMs.toFixed(0)} ms (after the burst, not in its figures)`,
    );
  console.log(
    `  client: CPU ${straightRun.cpuMs.toFixed(2)} ms a stream straight, ${throughRun.cpuMs.toFixed(2)} ${side}; ` +
      `connections opened ${straightRun.connections} straight, ${throughRun.connections} ${side}`,
  );
  if (straightRun.machine && throughRun.machine) {
    console.log(`  machine, straight: ${describeShare(straightRun.machine)}`);
    console.log(`  machine, ${side}: ${describeShare(throughRun.machine)}`);
  }
  if (straightRun.firstWords && throughRun.firstWords) {
    console.log(
      `  machine until 95% had first words, straight: ${describeShare(straightRun.firstWords)}`,
    );
    console.log(
      `  machine until 95% had first words, ${side}: ${describeShare(throughRun.firstWords)}`,
    );
  }
  const reports = (await Promise.all(apps.map((a) => a.ask('phases')))) as unknown as PhaseReport[];
  printPhases(reports);
  printTimeline([], straightRun.view, 'straight from the endpoint');
  printTimeline(reports, throughRun.view, side);
  for (const failure of [...new Set(failures)].slice(0, 3))
    console.log(`  failure: ${failure.slice(0, 200)}`);
  return result;
}

/** An admin URL of a PostgreSQL: DATABASE_URL, or a throwaway cluster; null when there is none. */
async function postgres(): Promise<{ admin: string; stop: () => void } | null> {
  let admin = '';
  // The setup provides the admin URL, then the name of its migrated template database: keep the URL.
  const project = {
    provide: (key: string, value: string) => void (key === 'ayahPgUrl' && (admin = value)),
  };
  const stop = await startPostgres(project as never);
  if (!admin) return null;
  return { admin, stop: () => (typeof stop === 'function' ? stop() : undefined) };
}

/**
 * Each size's bursts (`--repeat` of them), the one with the median overhead kept, with the longest
 * event-loop delay of them all.
 */
async function repeated(
  label: string,
  sizes: number[],
  endpoint: string,
  apps: Child[],
  tokens: string[],
  side?: string,
): Promise<Burst[]> {
  const results: Burst[] = [];
  for (const n of sizes) {
    const runs: Burst[] = [];
    for (let r = 0; r < REPEAT; r++) runs.push(await burst(label, n, endpoint, apps, tokens, side));
    const sorted = [...runs].sort((a, b) => a.overhead - b.overhead);
    const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
    if (REPEAT > 1)
      console.log(
        `\n${label}, ${n} at once, the median of ${REPEAT} bursts: ttft p95 +${median.overhead.toFixed(0)} ms ` +
          `(each: ${runs.map((r) => `+${r.overhead.toFixed(0)}`).join(', ')}), total p95 ×${median.totalRatio.toFixed(3)}, ` +
          `loop delay max ${median.loopMaxMs.toFixed(1)} ms (all: ${Math.max(...runs.map((r) => r.loopMaxMs)).toFixed(1)})`,
      );
    results.push({ ...median, loopMaxMs: Math.max(...runs.map((r) => r.loopMaxMs)) });
  }
  return results;
}

/** The floor (`--floor`): the same bursts through a bare relay (serve.ts `relay`) in the app's place. */
async function onFloor(endpoint: string, sizes: number[]): Promise<Burst[]> {
  const students = 3 + Math.max(...sizes);
  const relay = await child(['relay', '--llm', endpoint, '--students', String(students)], true);
  try {
    if (!COLD) await warmJit([relay], relay.shown.tokens as string[]);
    return await repeated(
      'A bare relay (the floor)',
      sizes,
      endpoint,
      [relay],
      relay.shown.tokens as string[],
      'through the bare relay',
    );
  } finally {
    await relay.stop();
  }
}

async function onDatabase(
  label: string,
  where: string[],
  endpoint: string,
  sizes: number[],
  processes: number,
) {
  const most = Math.max(...sizes);
  const students = processes * 3 + most;
  const first = await child(
    [
      'app',
      ...where,
      '--llm',
      endpoint,
      '--students',
      String(students),
      '--seed',
      ...(HISTORY > 0 ? ['--history', String(HISTORY)] : []),
      ...(MEMORIES > 0 ? ['--memories', String(MEMORIES)] : []),
      ...UNTRACED,
    ],
    true,
  );
  const apps = [first];
  try {
    for (let p = 1; p < processes; p++)
      apps.push(await child(['app', ...where, '--llm', endpoint, ...UNTRACED], true));
    const tokens = first.shown.tokens as string[];
    const chats = (first.shown.sessions ?? []) as string[];
    chats.forEach((chat, i) => chatOf.set(tokens[i]!, chat));
    if (!COLD) await warmJit(apps, tokens);
    // A student sends a few times in `warmJit`, then at most twice a burst (its warm-up, then the
    // burst; serve.ts lifts the rate limit out of reach).
    const results = await repeated(label, sizes, endpoint, apps, tokens);
    return results;
  } finally {
    for (const app of apps) await app.stop();
  }
}

async function main() {
  console.log(
    `bench:class: ${REPLY_CHUNKS.length}-chunk replies, students ${SIZES.join(' and ')}${HISTORY > 0 ? `, each going on with a chat of ${HISTORY} messages` : ''}${MEMORIES > 0 ? `, each with ${MEMORIES} learning memories` : ''}, Node ${process.version}, ${os.cpus().length} cores, load average ${loadAverage()}`,
  );
  const endpoint = await child(['endpoint', '--keep-alive', String(ENDPOINT_KEEP_ALIVE)]);
  endpointPid = endpoint.pid;
  const url = String(endpoint.shown.url);
  const found: Record<string, Burst[]> = {};
  let floor: Burst[] | null = null;
  try {
    if (FLOOR) floor = await onFloor(url, SIZES);
    if (DATABASES.includes('pglite')) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-bench-class-pglite-'));
      try {
        found.pglite = await onDatabase(
          'PGlite',
          ['--data-dir', path.join(dir, 'pgdata')],
          url,
          SIZES,
          1,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    if (DATABASES.includes('pg') || PROCESSES > 1) {
      const cluster = await postgres();
      if (!cluster) console.log('\nPostgreSQL runs skipped (the reason is above).');
      else {
        const name = `ayah_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
        const admin = async (statement: string) => {
          const client = new pg.Client({ connectionString: cluster.admin });
          await client.connect();
          try {
            await client.query(statement);
          } finally {
            await client.end();
          }
        };
        try {
          await admin(`CREATE DATABASE ${name}`);
          const db = new URL(cluster.admin);
          db.pathname = `/${name}`;
          if (DATABASES.includes('pg'))
            found.pg = await onDatabase('PostgreSQL', ['--url', db.toString()], url, SIZES, 1);
          if (PROCESSES > 1) {
            const most = Math.max(...SIZES);
            found.pgMany = await onDatabase(
              `PostgreSQL, ${PROCESSES} processes`,
              ['--url', db.toString()],
              url,
              [most],
              PROCESSES,
            );
          }
        } finally {
          await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
          cluster.stop();
        }
      }
    }
  } finally {
    await endpoint.stop();
  }

  const at = (list: Burst[] | undefined, n: number) => list?.find((r) => r.n === n);
  const fixed = (v: number | undefined, digits = 0) =>
    v === undefined || !Number.isFinite(v) ? 'NA' : v.toFixed(digits);
  const lite30 = at(found.pglite, 30);
  const lite300 = at(found.pglite, 300);
  const pg300 = at(found.pg, 300);
  const loop = Math.max(
    ...Object.values(found)
      .flat()
      .map((r) => r.loopMaxMs),
  );
  if (found.pgMany) {
    const many = found.pgMany[0]!;
    const one = at(found.pg, many.n);
    console.log(
      `\npg_processes=${PROCESSES} pg_many_ttft_overhead_ms=${fixed(many.overhead)} pg_many_total_over_direct=${fixed(many.totalRatio, 3)} ` +
        `pg_many_failed=${many.ayah.failed}${one ? ` pg_one_ttft_overhead_ms=${fixed(one.overhead)}` : ''}`,
    );
  }
  if (floor) {
    const [f30, f300] = [at(floor, 30), at(floor, 300)];
    console.log(
      `\nfloor30_ttft_overhead_ms=${fixed(f30?.overhead)} floor300_ttft_overhead_ms=${fixed(f300?.overhead)} ` +
        `floor300_total_over_direct=${fixed(f300?.totalRatio, 3)} floor300_failed=${f300 ? f300.ayah.failed : 'NA'} ` +
        `floor_loop_delay_max_ms=${fixed(Math.max(...floor.map((r) => r.loopMaxMs)), 1)}`,
    );
  }
  const worst = Math.max(
    ...Object.values(found)
      .flat()
      .map((r) => r.ayah.failed),
  );
  if (worst > 0) process.exitCode = 1;
  console.log(
    `class30_ttft_overhead_ms=${fixed(lite30?.overhead)} class300_ttft_overhead_ms=${fixed(lite300?.overhead)} ` +
      `class300_total_over_direct=${fixed(lite300?.totalRatio, 3)} class300_failed=${lite300 ? lite300.ayah.failed : 'NA'} ` +
      `class300_rss_mb=${fixed(lite300?.rssAboveIdleMb)} loop_delay_max_ms=${fixed(loop, 1)} ` +
      `pg_class300_ttft_overhead_ms=${fixed(pg300?.overhead)}`,
  );
}

const serveAt = process.argv.indexOf('--serve');
(serveAt === -1 ? main() : serveChild(process.argv.slice(serveAt + 1))).catch((error: unknown) => {
  console.error(serveAt === -1 ? 'bench:class failed:' : 'bench:class child failed:', error);
  process.exit(1);
});
