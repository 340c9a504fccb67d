/**
 * The processes of `npm run bench:class` besides the client (run.ts starts itself with `--serve …`):
 *
 * - `endpoint [--keep-alive s]`: the scripted OpenAI-compatible endpoint
 *   (tests/server/fake-openai.ts), every completion a 400-token reply in 100 chunks 25 ms apart (a
 *   warm-up's, `QUICK_QUESTION`, three chunks at once), keeping an idle connection `s` seconds
 *   (`ENDPOINT_KEEP_ALIVE_S`). Prints `{url}`.
 * - `app --url postgres://… | --data-dir dir --llm url --students n [--seed] [--history m]
 *   [--memories k] [--untraced]`: the real app over that database with that endpoint as its model,
 *   `n` signed-in students made straight in the database (`--seed`; a second process on the same
 *   PostgreSQL is started without it and is handed the first one's tokens through the shared JWT
 *   secret), each with a chat of `m` earlier messages when `--history` is given, and `k` learning
 *   memories when `--memories` is. Prints `{url, tokens, sessions}`
 *   (`sessions[i]` is student i's chat, or absent); then answers `stats`
 *   on stdin with one JSON line `{cpuMs, rssMb, peakRssMb, loopMaxMs, loopP99Ms}`, `reset` (CPU time,
 *   peak RSS and the event-loop delay histogram start again) with `{}`, and `settle` (the search
 *   filing the app leaves for a quiet spell, done now) with `{settleMs}`.
 * - `relay --llm url --students n` (`--floor`): the floor under the app on this machine, a bare
 *   `node:http` server that answers the send's route by relaying the model's stream as the app's
 *   `chunk` and `done` events through the app's own wire client (server/llm/completions.ts), with
 *   no database, sign-in, safety check or prompt. What it adds over the endpoint is what any server
 *   in the app's place adds here: a process that reads and writes 100 events a stream, on cores it
 *   shares with the client, the endpoint and PostgreSQL. Its `tokens` are placeholders; it answers
 *   `reset`, `stats` and `phases` as `app` does.
 *
 * Each closes and exits 0 when its stdin ends or on SIGTERM, so that `node --cpu-prof` writes its
 * profile.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

import { sql } from 'drizzle-orm';

import { reindexSessions } from '../../server/chat/service';
import type { Db } from '../../server/db';
import { chatMessages, chatSessions } from '../../server/db/schema';
import { flushStatistics, keepUp, startDatabaseUpkeep } from '../../server/db/upkeep';
import { streamCompletion } from '../../server/llm/completions';
import { FakeOpenAI } from '../../tests/server/fake-openai';
import { insertSignedInUser } from '../../tests/server/seed-user';
import { startServer } from '../support';
import { keepPhases } from './phases';

/** The reply every completion streams: 100 chunks of 4 words ("tokens"), 25 ms apart. */
export const REPLY_CHUNKS = Array.from({ length: 100 }, (_, i) => ` step ${i + 1} of the`);
export const CHUNK_DELAY_MS = 25;
/**
 * A question that starts so is answered at once, in three chunks (run.ts `warmJit`: the sends that
 * warm the app's code before the first measured burst).
 */
export const QUICK_QUESTION = 'Warm-up:';
const QUICK_REPLY = REPLY_CHUNKS.slice(0, 3);
/**
 * How long the endpoint keeps a client's idle connection, in seconds: as Cloudflare does in front of
 * hosted APIs (OpenAI's among them), 400 s. So a burst finds the connections the app kept from the
 * one before, as a class's next question would within minutes (server/llm/completions.ts
 * `MODEL_KEEP_ALIVE_MS`); `--endpoint-keep-alive 5`, Node's default (a model served by a bare Node
 * or Python server), has the app open a connection a reply after 5 s.
 */
export const ENDPOINT_KEEP_ALIVE_S = 400;
/** The JWT secret every app process of a run shares (so tokens from one work on the other). */
const SECRET = 'bench-class-secret-0123456789-abcdefghijklmnop';

let args: string[] = [];
const profiling = process.execArgv.includes('--cpu-prof');
function option(name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
}

async function endpoint() {
  const fake = new FakeOpenAI();
  const reply = { kind: 'chunks', chunks: REPLY_CHUNKS, delayMs: CHUNK_DELAY_MS } as const;
  const quick = { kind: 'chunks', chunks: QUICK_REPLY } as const;
  fake.fallback = {
    kind: 'respond',
    to: ({ messages }) => (messages.at(-1)?.content?.startsWith(QUICK_QUESTION) ? quick : reply),
  };
  fake.keepIdleConnections(Number(option('keep-alive') ?? ENDPOINT_KEEP_ALIVE_S) * 1000);
  await fake.start();
  return {
    shown: { url: fake.url },
    // The fake keeps every request it saw; a bench run needs none of them.
    onLine: () => void fake.requests.splice(0),
    close: () => fake.close(),
  };
}

async function app() {
  const url = option('url');
  const env = {
    AYAH_JWT_SECRET: SECRET,
    AYAH_LLM_BASE_URL: option('llm')!,
    AYAH_LLM_MODEL: 'bench-tutor',
    // Counted and checked as ever, never reached: a student sends twice a burst (warm-up, burst),
    // and repeated bursts would pass 20 a minute.
    AYAH_CHAT_RATE_LIMIT: '1000',
    // Where each send's time goes (bench/class/phases.ts), unless `--untraced`: the trace's
    // AsyncLocalStorage turns on async hooks for every promise and timer, ~1 ms of CPU a stream.
    AYAH_TRACE_SENDS: args.includes('--untraced') ? '0' : '1',
    ...(process.env.AYAH_MAX_STREAMS ? { AYAH_MAX_STREAMS: process.env.AYAH_MAX_STREAMS } : {}),
    ...(process.env.AYAH_STREAM_QUEUE ? { AYAH_STREAM_QUEUE: process.env.AYAH_STREAM_QUEUE } : {}),
  };
  const served = await startServer({
    database: url ? { url } : { dataDir: option('data-dir') ?? null },
    env,
    name: 'ayah-bench-class-',
    settleMs: 300,
    capConnections: true,
  });
  const { config, database } = served;
  const tokens: string[] = [];
  const sessions: string[] = [];
  if (args.includes('--seed')) {
    const count = Number(option('students') ?? 0);
    const history = Number(option('history') ?? 0);
    const memories = Number(option('memories') ?? 0);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const { id, token } = await insertSignedInUser(
        database,
        config.jwtSecret,
        { email: `class-${randomUUID()}@example.com`, displayName: `Student ${i}` },
        { tokenSeconds: 3 * 3600 },
      );
      tokens.push(token);
      ids.push(id);
      if (history > 0) sessions.push(await seedChat(database.db, id, i, history));
    }
    if (history > 0) await reindexSessions(database.db, sql`s.id in ${sessions}`);
    if (memories > 0) await seedMemories(database.db, ids, memories);
    // Vacuumed and analyzed as a server that has run a while is (on PostgreSQL by its autovacuum):
    // the seed is not a lesson's first minute.
    await flushStatistics(database.db);
    await keepUp(database.db, console);
  }
  // As main.ts: PGlite kept up in its quiet spells, as PostgreSQL is by its autovacuum.
  const stopUpkeep = startDatabaseUpkeep(database, console);

  const measures = measuring(() => database.threadBusyMs());
  return {
    shown: { url: served.url, tokens, sessions },
    onLine: (line: string) => (line === 'settle' ? settled(served) : measures.onLine(line)),
    close: async () => {
      measures.stop();
      await stopUpkeep();
      await served.close();
    },
  };
}

/**
 * `settle`: the app's search filing done now (what it leaves for a quiet spell after a burst), and
 * how long that took: `{settleMs}`.
 */
async function settled(served: { settle(): Promise<void> }) {
  const started = performance.now();
  await served.settle();
  return { settleMs: performance.now() - started };
}

/**
 * The process's answers to `reset`, `stats` and `phases` (see the header): its CPU time, RSS and
 * event-loop delay since the last `reset`, and `threadBusy()`'s growth (PGlite's thread) when not null.
 */
function measuring(threadBusy: () => number | null) {
  const phases = keepPhases();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let peak = process.memoryUsage.rss();
  let cpu = process.cpuUsage();
  let dbBusy = threadBusy();
  // Every 100 ms: reading the RSS costs ~0.25 ms here under load, in the process being measured.
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
  const mb = (bytes: number) => bytes / (1024 * 1024);
  return {
    onLine: (line: string) => {
      // Under `--cpu-prof`: when each burst starts and ends, on the profile's clock (µs), to cut it by.
      if (profiling) console.error(`bench:class mark ${line} ${process.hrtime.bigint() / 1000n}`);
      if (line === 'phases') return phases.report();
      if (line === 'reset') {
        phases.reset();
        loop.reset();
        peak = process.memoryUsage.rss();
        cpu = process.cpuUsage();
        dbBusy = threadBusy();
        return {};
      }
      if (line === 'stats') {
        const rss = process.memoryUsage.rss();
        peak = Math.max(peak, rss);
        const used = process.cpuUsage(cpu);
        return {
          cpuMs: (used.user + used.system) / 1000,
          rssMb: mb(rss),
          peakRssMb: mb(peak),
          loopMaxMs: loop.max / 1e6,
          loopP99Ms: loop.percentile(99) / 1e6,
          // PGlite's thread: how long it ran statements (its share of `cpuMs`); else absent.
          ...(dbBusy !== null && { dbThreadMs: threadBusy()! - dbBusy }),
        };
      }
      return undefined;
    },
    stop: () => {
      clearInterval(sampler);
      loop.disable();
    },
  };
}

/**
 * The floor (`relay`, see the header): the send's route as a bare relay of the model's stream, each
 * text piece a `chunk` event as the app writes it, then `done`. A request without a bearer token, or
 * whose body is not a conversation, is refused as the app would refuse it.
 */
async function relay() {
  const llm = option('llm')!;
  const count = Number(option('students') ?? 0);
  const server = http.createServer((request, response) => {
    if (request.method !== 'POST' || !request.url?.startsWith('/api/v1/chat/send/stream')) {
      response.writeHead(request.url === '/api/v1/health' ? 200 : 404).end('{}');
      return;
    }
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (piece: string) => (body += piece));
    request.on('end', () => {
      let messages: { role: 'user' | 'assistant'; content: string }[];
      try {
        messages = (JSON.parse(body) as { messages: typeof messages }).messages;
        if (!request.headers.authorization?.startsWith('Bearer ') || !Array.isArray(messages))
          throw new Error('refused');
      } catch {
        response.writeHead(422, { 'content-type': 'application/json' });
        response.end('{"detail":"not a conversation"}');
        return;
      }
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      const upstream = new AbortController();
      response.once('close', () => upstream.abort());
      void (async () => {
        let text = '';
        try {
          const parts = streamCompletion(
            llm,
            null,
            {
              model: 'bench-tutor',
              messages: [{ role: 'system', content: 'Be brief.' }, ...messages],
            },
            upstream.signal,
          );
          for await (const part of parts) {
            if (part.type !== 'text') continue;
            text += part.text;
            response.write(`event: chunk\ndata: ${JSON.stringify(part.text)}\n\n`);
          }
          response.end(`event: done\ndata: ${JSON.stringify({ response: text })}\n\n`);
        } catch (error) {
          response.end(`event: error\ndata: ${JSON.stringify({ detail: String(error) })}\n\n`);
        }
      })();
    });
  });
  server.keepAliveTimeout = 300_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const measures = measuring(() => null);
  return {
    shown: {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      tokens: Array.from({ length: count }, (_, i) => `relay-${i}`),
      sessions: [],
    },
    onLine: (line: string) => (line === 'settle' ? { settleMs: 0 } : measures.onLine(line)),
    close: async () => {
      measures.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Student `i`'s chat of `messages` earlier messages, questions and the endpoint's replies in turn,
 * a minute apart and ending a minute ago, written straight to the database (its search chunks are
 * built by the caller): a class that goes on with its lesson's chat, not one that starts anew.
 */
async function seedChat(db: Db, userId: string, i: number, messages: number): Promise<string> {
  const start = Date.now() - (messages + 1) * 60_000;
  const [session] = await db
    .insert(chatSessions)
    .values({
      userId,
      title: `Student ${i}'s fractions`,
      createdAt: new Date(start),
      lastMessageAt: new Date(start + messages * 60_000),
      messageCount: messages,
    })
    .returning({ id: chatSessions.id });
  await db.insert(chatMessages).values(
    Array.from({ length: messages }, (_, k) => ({
      sessionId: session!.id,
      userId,
      role: k % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content:
        k % 2 === 0
          ? `Student ${i}, question ${k / 2 + 1}: what comes next?`
          : REPLY_CHUNKS.join(''),
      createdAt: new Date(start + (k + 1) * 60_000),
    })),
  );
  return session!.id;
}

/**
 * `count` learning memories for each of `userIds`, one a minute back from now, as the tutor stores
 * them after each reply: questions of a few topics in turn, a third of them on adding fractions
 * (sharing words with the bench's question, as a student's history does).
 */
async function seedMemories(db: Db, userIds: string[], count: number) {
  const topics = [
    'how do I add 1/2 and 1/3?',
    'what is a volcano made of?',
    'why do leaves change colour in autumn?',
    'can you add 2/5 and 3/10 for me?',
    'what is the area of a circle with radius 4?',
    'how do plants make food from sunlight?',
    'how do you add fractions with different denominators?',
    'what caused the French revolution?',
    'how do I solve 3x + 2 = 11?',
  ];
  for (const userId of userIds)
    await db.execute(sql`
      insert into learning_memories (user_id, text, metadata, created_at, by_tutor)
      select ${userId}, 'Asked Ayah: ' || (${JSON.stringify(topics)}::jsonb ->> (k % ${topics.length})),
        '{"source": "chat"}'::jsonb, now() - k * interval '1 minute', true
      from generate_series(1, ${count}) k`);
}

/** Serves `argv` (`endpoint`, or `app` and its options) until stdin ends; see the header. */
export async function serveChild(argv: string[]): Promise<void> {
  args = argv;
  const child =
    argv[0] === 'endpoint' ? await endpoint() : argv[0] === 'relay' ? await relay() : await app();
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    child.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('bench:class child: close failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop).on('close', stop);
  createInterface({ input: process.stdin }).on('line', (line) => {
    void Promise.resolve(child.onLine(line.trim())).then((answer: unknown) => {
      if (answer !== undefined) process.stdout.write(`${JSON.stringify(answer)}\n`);
    });
  });
  process.stdout.write(`${JSON.stringify(child.shown)}\n`);
}
