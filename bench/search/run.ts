/**
 * Chat search at scale: seeds one student with 10,000 sessions and 100,000 messages in an in-memory
 * PGlite, then times GET /api/v1/chat/search over HTTP (one search document per session, under a
 * trigram index) next to the same match done as a plain ILIKE scan of titles and messages in the
 * database, and prints p50/p95, their ratio, and a last `key=value` line. Aim: p95 under 50 ms.
 *
 * Then the writes of a long session (issue 22 #3): a send and a rename on a session of `--long`
 * messages against the same on a session of 10, in the same run, medians and their ratio, and the
 * filing of each send's question and reply in the search chunks (the app's search filer, run at
 * once after each send: `settle`). A write touches one search chunk, so the ratios stay near 1 (it
 * was ~1,000× with one document a session).
 *
 *   npx tsx bench/search/run.ts [--sessions 10000] [--per-session 10] [--queries 200]
 *                               [--long 1000] [--writes 15]
 */
import { performance } from 'node:perf_hooks';

import { sql } from 'drizzle-orm';

import { signAccessToken } from '../../server/auth/tokens';
import { containsPattern, reindexSessions } from '../../server/chat/service';
import type { Db } from '../../server/db';
import { authSessions, users } from '../../server/db/schema';
import { arg, startServer } from '../support';

const SESSIONS = arg('sessions', 10_000);
const PER_SESSION = arg('per-session', 10);
const QUERIES = arg('queries', 200);
const LONG = arg('long', 1000);
const WRITES = arg('writes', 15);

const WORDS = [
  'fraction',
  'denominator',
  'photosynthesis',
  'volcano',
  'revolution',
  'equation',
  'grammar',
  'paragraph',
  'molecule',
  'gravity',
  'triangle',
  'algebra',
  'empire',
  'metaphor',
  'energy',
  'ecosystem',
  'decimal',
  'percent',
  'democracy',
  'essay',
  'planet',
  'cell',
  'verb',
  'angle',
];
// Rare and common terms, a phrase, and characters that must be taken literally.
const TERMS = [
  'photosynth',
  'Volcano',
  'fraction den',
  'zebra',
  'quantum-7',
  '100%',
  'it_s',
  'essay',
  'x',
];

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
};

async function main() {
  // Sends are limited to 20 a minute and session writes to 60: the write timings need more.
  const server = await startServer({
    database: { dataDir: null },
    name: 'ayah-bench-search-',
    overrides: (loaded) => ({
      publicUrl: 'http://bench.test',
      chat: { ...loaded.chat, rateLimit: 1_000_000 },
      limits: { ...loaded.limits, chatWrites: { limit: 1_000_000, windowMs: 60_000 } },
    }),
  });
  const { url, config } = server;
  const { db } = server.database;

  const [user] = await db
    .insert(users)
    .values({ email: 'bench@example.com', displayName: 'Bench' })
    .returning();
  const userId = user!.id;
  const words = `array[${WORDS.map((w) => `'${w}'`).join(',')}]`;
  const pick = (seed: string) =>
    `(${words})[1 + floor(random() * ${WORDS.length})::int]`.replace('seed', seed);
  let t = performance.now();
  await db.execute(
    sql.raw(`insert into chat_sessions (user_id, title, created_at, last_message_at, message_count)
      select '${userId}', initcap(${pick('a')}) || ' and ' || ${pick('b')} || ' #' || g,
             now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval, ${PER_SESSION}
      from generate_series(1, ${SESSIONS}) g`),
  );
  await db.execute(
    sql.raw(`insert into chat_messages (session_id, user_id, role, content, created_at)
      select s.id, s.user_id, case when k % 2 = 0 then 'user' else 'assistant' end,
             'Let us look at the ' || ${pick('c')} || ' and the ' || ${pick('d')} || ' in question ' || k ||
             case when random() < 0.001 then ' — a quantum-7 zebra, 100% it_s' else '' end,
             s.created_at + (k || ' seconds')::interval
      from chat_sessions s, generate_series(1, ${PER_SESSION}) k`),
  );
  // Rows written behind the service's back: their search chunks are built as the migration does.
  await reindexSessions(db, sql`s.user_id = ${userId}`);
  await db.execute(sql`analyze`);
  const seeded = performance.now() - t;
  const counts = (await db.execute(
    sql`select (select count(*) from chat_sessions) s, (select count(*) from chat_messages) m`,
  )) as {
    rows: { s: number; m: number }[];
  };

  const [session] = await db
    .insert(authSessions)
    .values({ userId, expiresAt: new Date(Date.now() + 3_600_000) })
    .returning();
  const token = await signAccessToken(
    { sub: userId, sid: session!.id, tv: 0 },
    config.jwtSecret,
    new Date(),
    3600,
  );

  const http: number[] = [];
  const scan: number[] = [];
  const totals = new Map<string, number>();
  const perTerm = new Map<string, number[]>();
  for (let i = 0; i < QUERIES; i++) {
    const term = TERMS[i % TERMS.length]!;
    t = performance.now();
    const reply = await fetch(
      `${url}/api/v1/chat/search?search=${encodeURIComponent(term)}&limit=20&page=1`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    const body = (await reply.json()) as { total: number };
    http.push(performance.now() - t);
    totals.set(term, body.total);
    perTerm.set(term, [...(perTerm.get(term) ?? []), http.at(-1)!]);

    const pattern = containsPattern(term);
    t = performance.now();
    await db.execute(sql`
      select s.id, count(*) over () as total from chat_sessions s
      where s.user_id = ${userId} and s.archived_at is null
        and (s.title ilike ${pattern} or exists (
          select 1 from chat_messages m where m.session_id = s.id and m.content ilike ${pattern}))
      order by s.last_message_at desc limit 20`);
    scan.push(performance.now() - t);
  }

  const writes = await longSessionWrites(db, userId, url, token, server.settle);
  await server.close();

  const h = stats(http);
  const s = stats(scan);
  const row = counts.rows[0]!;
  console.log(
    `seeded ${row.s} sessions and ${row.m} messages in ${(seeded / 1000).toFixed(1)} s (PGlite, one student)`,
  );
  console.log(`matches: ${[...totals].map(([k, v]) => `${JSON.stringify(k)}=${v}`).join(' ')}`);
  console.log(
    `search p50 by term (ms): ${[...perTerm].map(([k, v]) => `${JSON.stringify(k)}=${stats(v).p50.toFixed(1)}`).join(' ')}`,
  );
  console.log(
    `search over HTTP (document):  p50 ${h.p50.toFixed(1)} ms   p95 ${h.p95.toFixed(1)} ms   (${QUERIES} queries)`,
  );
  console.log(
    `plain ILIKE scan (DB only):  p50 ${s.p50.toFixed(1)} ms   p95 ${s.p95.toFixed(1)} ms`,
  );
  console.log(
    `ratio scan / search:         p50 ${(s.p50 / h.p50).toFixed(1)}×   p95 ${(s.p95 / h.p95).toFixed(1)}×`,
  );
  console.log(h.p95 < 50 ? 'p95 under 50 ms: yes' : `p95 under 50 ms: NO (${h.p95.toFixed(1)} ms)`);
  const ratio = (name: 'send' | 'file' | 'rename') => writes.long[name] / writes.short[name];
  for (const name of ['send', 'file', 'rename'] as const) {
    console.log(
      `${name} (median of ${WRITES}): ${LONG} messages ${writes.long[name].toFixed(1)} ms, 10 messages ${writes.short[name].toFixed(1)} ms, ratio ${ratio(name).toFixed(2)}×`,
    );
  }
  console.log(
    `send_long_ms=${writes.long.send.toFixed(1)} send_short_ms=${writes.short.send.toFixed(1)} rename_long_ms=${writes.long.rename.toFixed(1)} rename_short_ms=${writes.short.rename.toFixed(1)} send_ratio=${ratio('send').toFixed(2)} rename_ratio=${ratio('rename').toFixed(2)} file_long_ms=${writes.long.file.toFixed(1)} file_short_ms=${writes.short.file.toFixed(1)} file_ratio=${ratio('file').toFixed(2)}`,
  );
  console.log(
    `search_p50_ms=${h.p50.toFixed(1)} search_p95_ms=${h.p95.toFixed(1)} ilike_p50_ms=${s.p50.toFixed(1)} ilike_p95_ms=${s.p95.toFixed(1)} ratio=${(s.p95 / h.p95).toFixed(1)}`,
  );
}

/**
 * Median send and rename times over HTTP on a session of LONG messages and on one of 10 (seeded in
 * the database, search chunks rebuilt), taken in turns so that both see the same machine.
 */
async function longSessionWrites(
  db: Db,
  userId: string,
  url: string,
  token: string,
  settle: () => Promise<void>,
) {
  const seed = async (messages: number) => {
    const rows = (await db.execute(sql`
      insert into chat_sessions (user_id, title, message_count, created_at, last_message_at)
      values (${userId}, ${`A long talk of ${messages}`}, ${messages}, now() - interval '1 day', now())
      returning id`)) as unknown as { rows: { id: string }[] };
    const id = rows.rows[0]!.id;
    await db.execute(sql`
      insert into chat_messages (session_id, user_id, role, content, created_at)
      select ${id}, ${userId}, case when k % 2 = 0 then 'user' else 'assistant' end,
             repeat('Let us work through the fraction step by step, question ' || k || '. ', 8),
             now() - interval '1 day' + (k || ' seconds')::interval
      from generate_series(1, ${messages}) k`);
    await reindexSessions(db, sql`s.id = ${id}`);
    return id;
  };
  const sessions = { long: await seed(LONG), short: await seed(10) };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body: unknown) => {
    const t = performance.now();
    const reply = await fetch(`${url}/api/v1/chat${path}`, {
      method,
      headers,
      body: JSON.stringify(body),
    });
    await reply.arrayBuffer();
    if (!reply.ok) throw new Error(`${method} ${path}: ${reply.status}`);
    return performance.now() - t;
  };
  const times = {
    long: { send: [] as number[], file: [] as number[], rename: [] as number[] },
    short: { send: [] as number[], file: [] as number[], rename: [] as number[] },
  };
  for (let i = 0; i < WRITES; i++) {
    for (const kind of ['long', 'short'] as const) {
      const id = sessions[kind];
      times[kind].send.push(
        await call('POST', '/send', {
          messages: [{ role: 'user', content: `What is ${i} + ${i}?` }],
          sessionId: id,
        }),
      );
      const filing = performance.now();
      await settle();
      times[kind].file.push(performance.now() - filing);
      times[kind].rename.push(await call('PATCH', `/sessions/${id}/title`, { title: `Talk ${i}` }));
    }
  }
  const median = (samples: number[]) => stats(samples).p50;
  const of = (kind: 'long' | 'short') => ({
    send: median(times[kind].send),
    file: median(times[kind].file),
    rename: median(times[kind].rename),
  });
  return { long: of('long'), short: of('short') };
}

await main();
