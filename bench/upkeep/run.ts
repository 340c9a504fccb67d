/**
 * The embedded database over a term (server/db/upkeep.ts): two servers on in-memory PGlite in this
 * process, the same class of `--students` sending to the offline tutor over HTTP, lesson after
 * lesson (`--lessons`, `--sends` each a student), each student starting a chat each lesson. After
 * each lesson the kept server runs the pass that the break's quiet spell brings (`keepUp`); the
 * other runs none, as no server did before. Every `--every` lessons, both are measured:
 *
 * - the database's size (every table with its indexes and TOAST);
 * - a lesson's sends: their median, over HTTP;
 * - a chat search (`GET /chat/search`) of a word every chat holds, the p50 over `--searches`.
 *
 * Then each one's largest tables, and the unkept server's search once analyzed, then vacuumed too.
 * The last line gives the unkept server's figures over the kept one's, at the end:
 * `upkeep_size_ratio= upkeep_send_ratio= upkeep_search_ratio= upkeep_pass_ms_max=`.
 *
 *   npx tsx bench/upkeep/run.ts [--students 30] [--lessons 40] [--sends 3] [--every 10]
 *                               [--searches 30]
 */
import { performance } from 'node:perf_hooks';

import { sql } from 'drizzle-orm';

import { flushStatistics, keepUp } from '../../server/db/upkeep';
import { insertSignedInUser } from '../../tests/server/seed-user';
import { arg, type StartedServer, startServer } from '../support';

const STUDENTS = arg('students', 30);
const LESSONS = arg('lessons', 40);
const SENDS = arg('sends', 3);
const EVERY = arg('every', 10);
const SEARCHES = arg('searches', 30);

const QUESTIONS = [
  'how do I add 1/2 and 1/3?',
  'what is a volcano made of?',
  'why do leaves change colour in autumn?',
  'solve 2x + 3 = 11',
  'what is the area of a circle with radius 4?',
  'how do plants make food from sunlight?',
  'what caused the French revolution?',
];

interface School {
  name: string;
  server: StartedServer;
  tokens: string[];
  sessions: (string | null)[];
  kept: boolean;
  passMs: number[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

async function open(name: string, kept: boolean): Promise<School> {
  const server = await startServer({
    database: { dataDir: null },
    name: `ayah-bench-upkeep-${name}-`,
    // A class sends more than 20 a minute between them; each student's own limit is not measured.
    env: { AYAH_CHAT_RATE_LIMIT: '100000' },
  });
  const tokens: string[] = [];
  for (let i = 0; i < STUDENTS; i++) {
    const { token } = await insertSignedInUser(
      server.database,
      server.config.jwtSecret,
      { email: `upkeep-${name}-${i}@example.com`, displayName: `Student ${i}` },
      { tokenSeconds: 6 * 3600 },
    );
    tokens.push(token);
  }
  return { name, server, tokens, sessions: tokens.map(() => null), kept, passMs: [] };
}

/** One send of student `i`; answers its time in ms. */
async function send(school: School, i: number, n: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${school.server.url}/api/v1/chat/send`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${school.tokens[i]}`,
    },
    body: JSON.stringify({
      messages: [{ role: 'user', content: `${QUESTIONS[(i + n) % QUESTIONS.length]} (${n})` }],
      sessionId: school.sessions[i],
    }),
  });
  const body = (await response.json()) as { sessionId?: string; detail?: unknown };
  if (response.status !== 200) throw new Error(`send: ${response.status} ${JSON.stringify(body)}`);
  school.sessions[i] = body.sessionId!;
  return performance.now() - started;
}

async function lesson(school: School, lessonNo: number): Promise<number> {
  const times: number[] = [];
  school.sessions.fill(null);
  for (let n = 0; n < SENDS; n++)
    for (let i = 0; i < STUDENTS; i++) times.push(await send(school, i, lessonNo * SENDS + n));
  if (school.kept) {
    // PGlite's statistics reach its views within a second; the break's pass comes seconds later.
    await flushStatistics(school.server.database.db);
    const started = performance.now();
    await keepUp(school.server.database.db, console);
    school.passMs.push(performance.now() - started);
  }
  return median(times);
}

async function searchP50(school: School): Promise<number> {
  const times: number[] = [];
  for (let k = 0; k < SEARCHES; k++) {
    const started = performance.now();
    const response = await fetch(`${school.server.url}/api/v1/chat/search?search=revolution`, {
      headers: { authorization: `Bearer ${school.tokens[k % STUDENTS]}` },
    });
    if (response.status !== 200) throw new Error(`search: ${response.status}`);
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  return median(times);
}

async function sizeMb(school: School): Promise<number> {
  const result = await school.server.database.db.execute(sql`
    select sum(pg_total_relation_size(relid))::float8 as bytes from pg_stat_user_tables`);
  return Number((result as unknown as { rows: { bytes: number }[] }).rows[0]!.bytes) / 2 ** 20;
}

const schools = [await open('unkept', false), await open('kept', true)];
console.log(
  `bench:upkeep — ${STUDENTS} students, ${LESSONS} lessons of ${SENDS} sends each, PGlite in memory`,
);
const last: Record<string, { size: number; send: number; search: number }> = {};
for (let l = 0; l < LESSONS; l++) {
  // Turn about: neither server always goes first.
  const order = l % 2 === 0 ? schools : [...schools].reverse();
  const sends: Record<string, number> = {};
  for (const school of order) sends[school.name] = await lesson(school, l);
  if ((l + 1) % EVERY !== 0 && l + 1 !== LESSONS) continue;
  const line = [`lesson ${String(l + 1).padStart(3)}`];
  for (const school of schools) {
    const figures = {
      size: await sizeMb(school),
      send: sends[school.name]!,
      search: await searchP50(school),
    };
    last[school.name] = figures;
    line.push(
      `${school.name}: ${figures.size.toFixed(1)} MB, send p50 ${figures.send.toFixed(1)} ms, ` +
        `search p50 ${figures.search.toFixed(1)} ms`,
    );
  }
  console.log(line.join(' | '));
}
// Where the difference lies: the largest tables (with their indexes) of each.
const sizes = await Promise.all(
  schools.map(async (school) => {
    const result = await school.server.database.db.execute(sql`
      select relname as name, pg_total_relation_size(relid)::float8 / 1048576 as mb
      from pg_stat_user_tables order by 2 desc limit 6`);
    return (result as unknown as { rows: { name: string; mb: number }[] }).rows;
  }),
);
for (const [i, school] of schools.entries())
  console.log(
    `${school.name}: ${sizes[i]!.map((t) => `${t.name} ${t.mb.toFixed(1)} MB`).join(', ')}`,
  );
// What the unkept server's search lacked: statistics alone, then the dead rows gone too.
const unkeptDb = schools[0]!.server.database.db;
await unkeptDb.execute(sql`analyze`);
const analyzed = await searchP50(schools[0]!);
await unkeptDb.execute(sql`vacuum`);
console.log(
  `unkept search p50 after ANALYZE alone: ${analyzed.toFixed(1)} ms; after VACUUM too: ` +
    `${(await searchP50(schools[0]!)).toFixed(1)} ms`,
);
const [unkept, kept] = [last.unkept!, last.kept!];
const passes = schools[1]!.passMs;
console.log(
  `kept server's passes: median ${median(passes).toFixed(1)} ms, max ${Math.max(...passes).toFixed(1)} ms`,
);
console.log(
  `upkeep_size_ratio=${(unkept.size / kept.size).toFixed(2)} ` +
    `upkeep_send_ratio=${(unkept.send / kept.send).toFixed(2)} ` +
    `upkeep_search_ratio=${(unkept.search / kept.search).toFixed(2)} ` +
    `upkeep_pass_ms_max=${Math.max(...passes).toFixed(1)}`,
);
for (const school of schools) await school.server.close();
