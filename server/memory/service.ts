/**
 * Learning memory: what a student studied, stored per user and searched to coach them with it.
 *
 * With an embedding model configured (AYAH_LLM_EMBEDDING_MODEL), texts are embedded through the
 * endpoint's `/embeddings` and ranked by cosine similarity: with pgvector's `<=>` where the database has
 * the extension, else by an exact cosine scan in SQL (`ayah_cosine_similarity`, migration 0002) over
 * the caller's own rows, which a per-student memory keeps small. Without an embedding model (or when
 * the endpoint fails) search ranks by PostgreSQL full-text search (`ts_rank_cd`, any word may match).
 * Every query is scoped to the caller's user id.
 */
import type { Placeholder, SQL } from 'drizzle-orm';
import { asc, eq, sql } from 'drizzle-orm';

import { inOrder, rowsOf, transaction } from '../db';
import type { Column, Placeholders } from '../db/compiled';
import { compiled, jsonOf } from '../db/compiled';
import { learningMemories } from '../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../http/errors';
import { enforce, withinLimit } from '../http/rate-limit';
import type { LlmClient } from '../llm/model';

export interface MemoryHit {
  id: string;
  text: string;
  metadata: Record<string, unknown>;
  score: number;
  createdAt: string;
}

const MAX_QUERY_WORDS = 32;

/**
 * Any word of the query may match: one `to_tsquery` of the words OR-ed, `a | b | …`. Each word is
 * letters and digits only, so the text is never a syntax error. One call with one parameter, where
 * a `plainto_tsquery` a word, OR-ed, took 0.2 ms of PGlite's time for an 11-word question before
 * every reply, and made a statement of its own for each number of words (issue 26).
 */
function anyWordQuery(query: string): SQL | null {
  const words = anyWords(query);
  return words === null ? null : sql`to_tsquery('english', ${words})`;
}

/** `anyWordQuery`'s words, OR-ed (null when there are none). */
function anyWords(query: string): string | null {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(
    0,
    MAX_QUERY_WORDS,
  );
  return words.length === 0 ? null : words.join(' | ');
}

/**
 * A search's query as a row `q (query)`, worked out once a statement: `offset 0` keeps PostgreSQL
 * from folding it into the rows' expressions, where a generic plan (PGlite's prepared statements,
 * db/pglite-statements.ts) would parse the words or the vector again for every row it reads.
 */
const queryOnce = (query: SQL) => sql`(select ${query} as query offset 0)`;

/**
 * The tutor recalls from a student's latest this many memories, before every reply. Ranked among all
 * of them, the recall grew with the student's history (one memory a reply, up to 2,000): with every
 * memory matching, PGlite took 2.5 ms at 200 memories and 29.6 ms at 2,000, and its index scan read
 * every student's matches (issue 26). The latest 200 are about a month of a student's questions.
 */
export const RECALL_WINDOW = 200;

/** `metadata.source` of the memories the tutor stores after a reply (`remember`). */
const TUTOR_SOURCE = 'chat';

/** The student's latest `window` memories, as a table `learning_memories` of the same columns. */
const latestOf = (userId: string | Placeholder, window: number) =>
  sql`(select * from ${learningMemories} where user_id = ${userId}
    order by created_at desc limit ${window}) ${learningMemories}`;

const vectorLiteral = (v: number[]) => `{${v.map((x) => (Number.isFinite(x) ? x : 0)).join(',')}}`;

export const MEMORY_MESSAGES = {
  tooFast: 'Too many things remembered at once. Please wait a moment and try again.',
  full: 'The learning memory is full.',
} as const;

/** A memory's row as a search answers it (its `created_at` a Date, or json's text). */
interface HitRow {
  id: string;
  text: string;
  metadata: unknown;
  score: unknown;
  created_at: unknown;
}

function toHit(row: HitRow): MemoryHit {
  const created =
    row.created_at instanceof Date ? row.created_at : new Date(String(row.created_at));
  return {
    id: row.id,
    text: row.text,
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
    score: Math.round(Number(row.score) * 1e6) / 1e6,
    createdAt: created.toISOString(),
  };
}

/**
 * The recall's answer from `recalled`'s rows: the `limit` best matches, or when none matched the two
 * newest (score 0).
 */
function recallOf(rows: HitRow[], limit: number): MemoryHit[] {
  const hits = rows.filter((row) => row.score !== null).slice(0, limit);
  return (hits.length > 0 ? hits : rows.map((row) => ({ ...row, score: 0 }))).map(toHit);
}

type RecallValues = 'userId' | 'words' | 'most';

/**
 * The recall without an embedding model (`recallColumn`; `recallOf` reads its rows),
 * in one statement and one pass over the student's latest RECALL_WINDOW memories (issue 26: it runs
 * before every reply): the full-text matches of `words` among them as `search` ranks them, else the
 * two most recent (with no `words`, null, only those). Each memory is scored (null when it does not
 * match) and numbered from the newest; the matches come first, then the two newest, and the two
 * newest count only when nothing matched. Two CTEs (the window, and the matches read twice) took
 * 754 µs a call in PGlite's thread for a student with 2 memories, this 572 µs, and never more.
 */
const recalled = (p: Placeholders<RecallValues>) => sql`
    select id, text, metadata, created_at, score from (
      select id, text, metadata, created_at,
        case when tsv @@ q.query then ts_rank_cd(tsv, q.query, 32) end as score,
        row_number() over (order by created_at desc) as newest
      from ${latestOf(p.userId, RECALL_WINDOW)},
        ${queryOnce(sql`to_tsquery('english', ${p.words})`)} q) scored
    where score is not null or newest <= 2
    order by score desc nulls last, created_at desc
    limit ${p.most}`;
/** `recalled` as one json value, for a column of another statement (`recallColumn`). */
const recalledJson = (p: Placeholders<RecallValues>) =>
  sql`(select coalesce(json_agg(r order by r.score desc nulls last, r.created_at desc), '[]'::json)
    from (${recalled(p)}) r)`;

type StoreValues = 'userId' | 'text' | 'metadata' | 'at' | 'most' | 'key' | 'limit';

/**
 * A memory's row, unless the student already has the most kept (`most`) — or, `rolling`, in place
 * of the oldest of the tutor's own memories. The sub-statements of one WITH share a snapshot: the
 * insert counts what was evicted itself. `commit_now` when the write was within its limit.
 */
function storing(p: Placeholders<StoreValues>, rolling: boolean) {
  const evicted = rolling
    ? sql`evicted as (
        delete from ${learningMemories} where id in (
          select id from ${learningMemories}
          where user_id = ${p.userId} and by_tutor
          order by created_at limit (select greatest(kept.n - ${p.most} + 1, 0) from kept))
        returning 1)`
    : sql`evicted as (select 1 where false)`;
  return sql`
    with kept as (select count(*) as n from ${learningMemories} where user_id = ${p.userId}),
    ${evicted}
    insert into ${learningMemories} (user_id, text, metadata, created_at, by_tutor)
    select ${p.userId}, ${p.text}, ${p.metadata}::jsonb, ${p.at}::timestamptz, ${rolling}
    where (select n from kept) - (select count(*) from evicted) < ${p.most}
    returning id, ${withinLimit(p.key, p.limit)} as commit_now`;
}
const store = compiled<StoreValues>((p) => storing(p, false));
const storeRolling = compiled<StoreValues>((p) => storing(p, true));

/** A date of the account export (auth's GET /export). */
const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function createMemoryService({ db, logger, now, config }: Deps, llm: LlmClient) {
  let mode: Promise<'pgvector' | 'sql'> | null = null;
  function vectorMode() {
    mode ??= db.execute(sql`select 1 from pg_extension where extname = 'vector'`).then((r) => {
      const has = rowsOf(r).length > 0;
      logger.info(
        has
          ? '[memory] embeddings ranked with pgvector'
          : '[memory] pgvector is not installed in this database: embeddings are ranked by an exact cosine scan in SQL',
      );
      return has ? ('pgvector' as const) : ('sql' as const);
    });
    return mode;
  }
  if (!llm.embed)
    logger.info(
      '[memory] no embedding model configured (AYAH_LLM_EMBEDDING_MODEL): learning memory is ranked by full-text search',
    );

  async function embedOrNull(text: string): Promise<number[] | null> {
    if (!llm.embed) return null;
    try {
      return await llm.embed(text);
    } catch (error) {
      logger.warn(
        `[memory] embedding failed (${(error as Error).message}); using full-text search`,
      );
      return null;
    }
  }

  /**
   * The student's memories `limit` best first. `window` (the tutor's recall): only among their
   * latest `window` memories; without it, among all of them.
   */
  async function search(
    userId: string,
    query: string,
    limit: number,
    window?: number,
  ): Promise<MemoryHit[]> {
    const memories = window === undefined ? sql`${learningMemories}` : latestOf(userId, window);
    const vector = await embedOrNull(query);
    let rows: unknown[];
    if (vector && llm.embeddingModel) {
      const literal = vectorLiteral(vector);
      const pgvector = (await vectorMode()) === 'pgvector';
      const score = pgvector
        ? sql`1 - (embedding::vector <=> q.query)`
        : sql`ayah_cosine_similarity(embedding, q.query)`;
      const query = pgvector ? sql`${literal}::real[]::vector` : sql`${literal}::real[]`;
      rows = rowsOf(
        await db.execute(sql`
          select id, text, metadata, created_at, ${score} as score
          from ${memories}, ${queryOnce(query)} q
          where user_id = ${userId} and embedding is not null and embedding_model = ${llm.embeddingModel}
            and cardinality(embedding) = ${vector.length}
          order by score desc, created_at desc
          limit ${limit}`),
      );
    } else {
      const tsquery = anyWordQuery(query);
      if (!tsquery) return [];
      rows = rowsOf(
        await db.execute(sql`
          select id, text, metadata, created_at, ts_rank_cd(tsv, q.query, 32) as score
          from ${memories}, ${queryOnce(tsquery)} q
          where user_id = ${userId} and tsv @@ q.query
          order by score desc, created_at desc
          limit ${limit}`),
      );
    }
    return (rows as HitRow[]).map(toHit);
  }

  /** The student's two most recent memories (score 0): what the tutor recalls when none matches. */
  async function latestTwo(userId: string): Promise<MemoryHit[]> {
    const rows = rowsOf<HitRow>(
      await db.execute(sql`select id, text, metadata, created_at, 0::real as score
        from ${learningMemories} where user_id = ${userId} order by created_at desc limit 2`),
    );
    return rows.map(toHit);
  }

  /**
   * Stores one memory. Bounded per student: writes a minute, and rows in all (an account must not
   * grow without end). One transaction under the user's lock, its two statements sent together
   * (issue 26: the tutor stores one after every reply, three round trips and three commits it
   * was): the write is counted, then the row goes in unless the student already has the most kept
   * — or, `rolling`, in place of the oldest of the tutor's own memories. Two stores at once can no
   * longer both pass the last free place. On PGlite the row's statement commits it when the write
   * was within its limit (a full memory gives no row): nothing is left to decide (`commitWhen`,
   * db/index.ts).
   */
  async function write(
    userId: string,
    text: string,
    metadata: Record<string, unknown>,
    rolling: boolean,
  ): Promise<string> {
    const at = now();
    const key = `memory-write:${userId}`;
    const rule = config.limits.memoryWrites;
    const id = await transaction(
      db,
      async (tx) => {
        const [, added] = await inOrder([
          () => enforce(tx, key, rule, at, MEMORY_MESSAGES.tooFast, userId),
          () =>
            (rolling ? storeRolling : store)(tx, {
              userId,
              text,
              metadata: JSON.stringify(metadata),
              at: at.toISOString(),
              most: config.limits.memoryMaxRows,
              key,
              limit: rule.limit,
            }),
        ]);
        const [row] = rowsOf<{ id: string }>(added);
        if (!row) throw new AppError(409, MEMORY_MESSAGES.full);
        return String(row.id);
      },
      { commitWhen: 'commit_now' },
    );
    // The embedding after the row (the model is not called inside a transaction, nor for a
    // refused write): until it lands, or when the model fails, the memory ranks by its words.
    const embedding = await embedOrNull(text);
    if (embedding)
      await db
        .update(learningMemories)
        .set({ embedding, embeddingModel: llm.embeddingModel })
        .where(eq(learningMemories.id, id));
    return id;
  }

  return {
    /** A memory the student stores (`/store-user-data`); 409 when they have the most kept. */
    store: (userId: string, text: string, metadata: Record<string, unknown> = {}) =>
      write(userId, text, metadata, false),

    /**
     * A memory of the tutor's (`by_tutor`, and `metadata.source` "chat"), after a reply: when the
     * student has the most kept, the tutor's oldest gives its place, so the tutor goes on learning
     * what the student studies (it recalls from the latest, RECALL_WINDOW) and the memory stays
     * bounded. The student's own memories never do, whatever their metadata says.
     */
    remember: (userId: string, text: string, metadata: Record<string, unknown> = {}) =>
      write(userId, text, { ...metadata, source: TUTOR_SOURCE }, true),

    search,

    /**
     * `recall` without an embedding model as a column of another statement (`Column`,
     * db/compiled.ts): the tutor recalls in the statement that stores the student's question
     * (issue 26). Null with an embedding model: the recall asks the model first.
     */
    recallColumn(
      userId: string,
      message: string,
      count = 3,
    ): Column<MemoryHit[], RecallValues> | null {
      if (llm.embed) return null;
      return {
        name: 'recall',
        sql: recalledJson,
        values: { userId, words: anyWords(message), most: count + 2 },
        read: (value) => recallOf(jsonOf(value) as HitRow[], count),
      };
    },

    /**
     * For the tutor with an embedding model (without one it reads `recallColumn`): memories among
     * the latest RECALL_WINDOW that match the message, else the most recent ones.
     */
    async recall(userId: string, message: string, count = 3): Promise<MemoryHit[]> {
      const hits = await search(userId, message, count, RECALL_WINDOW);
      return hits.length > 0 ? hits : latestTwo(userId);
    },

    /** The user's learning memory, for the account export. */
    async exportRows(userId: string) {
      const memory = await db
        .select({
          id: learningMemories.id,
          text: learningMemories.text,
          metadata: learningMemories.metadata,
          created_at: learningMemories.createdAt,
        })
        .from(learningMemories)
        .where(eq(learningMemories.userId, userId))
        .orderBy(asc(learningMemories.createdAt));
      return {
        learning_memory: memory.map((row) => ({ ...row, created_at: iso(row.created_at) })),
      };
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;
