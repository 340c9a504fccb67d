/**
 * Chat sessions and their messages, over the database. A send is three steps:
 * `begin` (one transaction: lock the user, apply the rate limit, find or create the session, store
 * the student's message, award the 10th message), then the reply is produced (tutor.ts), then
 * `finish` stores the complete reply. A reply that fails midway never reaches `finish`: the student's
 * message stays and nothing half-written is stored. Both messages wait in their session's
 * `search_pending` (search finds them there) until the search filer adds them to the search chunks
 * after a quiet spell (`fileSearchPending`, `searchFiler`).
 */
import { isClientSessionId, POINTS, sessionTitle } from 'ayah-coach/rules';
import type { Placeholder, SQL } from 'drizzle-orm';
import { and, asc, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';

import type { SearchFiling } from '../config';
import type { Db, Queryable } from '../db';
import { inOrder, rowsOf, transaction } from '../db';
import { REPLY_BOUNDS, REQUEST_BOUNDS } from '../db/bounds';
import type { AnyColumn, ColumnValues, Placeholders } from '../db/compiled';
import { compiled, compiledWith, jsonOf } from '../db/compiled';
import { userLock } from '../db/locks';
import { chatMessages, chatSearchChunks, chatSessions, safetyEvents } from '../db/schema';
import type { Deps } from '../deps';
import type { Logger } from '../http/errors';
import { AppError } from '../http/errors';
import { isUuid } from '../http/ids';
import type { Page } from '../http/paging';
import { offsetOf, paged } from '../http/paging';
import { enforce, withinLimit } from '../http/rate-limit';
import type { PointsLedger, SafetyEvent } from '../ports';

export const CHAT_MESSAGES = {
  notFound: 'Chat session not found',
  archivedNotFound: 'Archived chat session not found',
  deleted: 'Chat deleted successfully',
  allArchived: 'All chats archived successfully',
  allDeleted: 'All chats deleted successfully',
  rateLimited: 'You are sending messages too quickly. Please wait a moment and try again.',
  tooFast: 'You are changing your chats too quickly. Please wait a moment and try again.',
} as const;

type SessionRow = typeof chatSessions.$inferSelect;

/** What a session's answers show (lists read only these, not the search document). */
const sessionFields = {
  id: chatSessions.id,
  title: chatSessions.title,
  createdAt: chatSessions.createdAt,
  lastMessageAt: chatSessions.lastMessageAt,
  messageCount: chatSessions.messageCount,
};

export function publicSession(row: Pick<SessionRow, keyof typeof sessionFields>) {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    lastMessageAt: row.lastMessageAt.toISOString(),
    messageCount: row.messageCount,
  };
}

/** `%text%` for LIKE, with the pattern characters (`%`, `_`, `\`) of the text escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/*
 * Search chunks (table `chat_search_chunks`). Chunk 0 of a session is `lower(title)`; chunks 1… hold
 * `chr(1) || lower(content)` for every message in order, a message joining the last chunk while that
 * stays within CHUNK_CHARS, else starting the next one. A message waits in its session's
 * `search_pending` (searched as it is) until the search filer adds it to the chunks, and a
 * rename rewrites chunk 0, so no write grows with the session (one document per session made each
 * write rewrite and re-index the whole conversation: 8.5 s a send at 1,000 messages, issue 22 #3). A
 * trigram index over the chunks makes search one match per chunk, not per message. A needle without
 * chr(1) that occurs in a chunk lies inside one piece, so it occurs in the title or in a message:
 * exactly the matches of `lower(title|content) like lower('%needle%')`. A needle with chr(1) (a
 * control character, allowed in messages) is checked against the title and messages themselves.
 */
const SEPARATOR = '\u0001';

/**
 * A chunk takes another message while it stays this long (a longer message gets one of its own).
 * Appending rewrites the chunk, and its trigram index takes every trigram of the new text again, so
 * this bounds what a write re-indexes (issue 26: at 8,000 a question after a 400-token reply
 * re-indexed both, 3.5 ms of PGlite's one thread a send instead of 0.9, and a class of 30 in the
 * middle of its chats waited +256 ms for first words against +172; no send re-indexes anything
 * now, the search filer does after a quiet spell). More, smaller
 * chunks cost search little: bench:search's p95 19 ms against 23, its p50 15 against 10.
 */
export const CHUNK_CHARS = 1000;

/** Starts the session's search chunks with its title (chunk 0). */
async function indexTitle(q: Queryable, sessionId: string, title: string) {
  await q
    .insert(chatSearchChunks)
    .values({ sessionId, seq: 0, text: sql`lower(${title})` })
    .onConflictDoUpdate({
      target: [chatSearchChunks.sessionId, chatSearchChunks.seq],
      set: { text: sql`excluded.text` },
    });
}

/** A message's piece of a search chunk (the separator, then its lowercased text). */
const chunkPiece = (content: string | Placeholder) => sql`(chr(1) || lower(${content}::text))`;

/** A text's length as PostgreSQL's `length` counts it: characters, not UTF-16 units. */
function characters(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** A session's last chunk: its `seq` (0: the title's) and its length; null when it has none. */
interface LastChunk {
  seq: number;
  n: number;
}

/**
 * Where `pieces` go, in order, after the session's `last` chunk: each joins the last chunk while that
 * stays within CHUNK_CHARS (never the title's), else starts the next one, exactly as appending them
 * one at a time would. `onto` is what the existing last chunk gains ('' for nothing), `fresh` the
 * chunks that follow it.
 */
export function packPieces(
  last: LastChunk | null,
  pieces: readonly string[],
): { onto: string; fresh: string[] } {
  // The length of the chunk pieces may join, or null: none may (none yet, or the title's).
  let size = last && last.seq > 0 ? last.n : null;
  let onto = '';
  const fresh: string[] = [];
  for (const piece of pieces) {
    const n = characters(piece);
    if (size !== null && size + n <= CHUNK_CHARS) {
      if (fresh.length === 0) onto += piece;
      else fresh[fresh.length - 1] += piece;
      size += n;
    } else {
      fresh.push(piece);
      size = n;
    }
  }
  return { onto, fresh };
}

/** How many sessions one filing transaction takes: short, as PGlite runs one at a time. */
const FILING_BATCH = 25;

/**
 * Adds the waiting messages (`search_pending`) of up to FILING_BATCH sessions to their search
 * chunks, in one transaction: the sessions' rows locked (any a writer holds are skipped, left for
 * the next pass), their last chunks read, the pieces packed (`packPieces`), then one statement
 * that grows the last chunks, adds the new ones (and the title's chunk of a session that has
 * none), and clears what waited. A rename takes the session's row before its chunk, as this does:
 * they never wait on each other in a cycle. Answers how many sessions it filed.
 */
async function fileSearchPending(db: Db): Promise<number> {
  return transaction(
    db,
    async (tx) => {
      const sessions = rowsOf<{
        id: string;
        pieces: string[];
        seq: number | null;
        n: number | null;
      }>(
        await tx.execute(sql`
          select s.id, s.search_pending as pieces, last.seq, last.n
          from ${chatSessions} s
          left join lateral (
            select seq, length(text) as n from ${chatSearchChunks} c
            where c.session_id = s.id order by seq desc limit 1) last on true
          where s.search_pending is not null
          limit ${FILING_BATCH}
          for update of s skip locked`),
      );
      if (sessions.length === 0) return 0;
      const grown: { id: string; seq: number; text: string }[] = [];
      const added: { id: string; seq: number; text: string }[] = [];
      const titled: string[] = [];
      for (const session of sessions) {
        const last = session.seq === null ? null : { seq: session.seq, n: Number(session.n) };
        if (!last) titled.push(session.id);
        const { onto, fresh } = packPieces(last, session.pieces);
        if (onto !== '') grown.push({ id: session.id, seq: last!.seq, text: onto });
        const start = last?.seq ?? 0;
        fresh.forEach((text, k) => added.push({ id: session.id, seq: start + 1 + k, text }));
      }
      const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
      await tx.execute(sql`
        with grown as (
          update ${chatSearchChunks} c set text = c.text || g.text
          from jsonb_to_recordset(${json(grown)}) as g(id uuid, seq int, text text)
          where c.session_id = g.id and c.seq = g.seq),
        added as (
          insert into ${chatSearchChunks} (session_id, seq, text)
          select a.id, a.seq, a.text
          from jsonb_to_recordset(${json(added)}) as a(id uuid, seq int, text text)),
        titled as (
          insert into ${chatSearchChunks} (session_id, seq, text)
          select s.id, 0, lower(s.title) from ${chatSessions} s
          where s.id in (select value::uuid from jsonb_array_elements_text(${json(titled)})))
        update ${chatSessions} s set search_pending = null
        where s.id in (select value::uuid from jsonb_array_elements_text(${json(sessions.map((row) => row.id))}))`);
      return sessions.length;
    },
    { bounds: REQUEST_BOUNDS },
  );
}

/**
 * Files waiting search pieces (`fileSearchPending`) once no reply is being written (`holdWhile`)
 * and no message has been stored for `settings.quietMs`, or when the first of them has waited
 * `settings.maxWaitMs` (issue 26: a class's burst of sends no longer re-indexes chunks while its
 * replies stream; the work comes after, in batches). Pieces a crash or another process left are
 * filed after the first quiet spell. `wrote` is told of each stored message; `settle` files
 * everything now; `stop` ends it (what still waits stays in the database for the next start).
 */
function searchFiler(db: Db, settings: SearchFiling, logger: Logger) {
  const clock = () => performance.now();
  let lastWrite = -Infinity;
  /** Whether replies are being written (the chat routes say: their stream gate's load). */
  let busy = () => false;
  const quiet = () => !busy() && clock() - lastWrite >= settings.quietMs;
  /** When the oldest piece this filer knows of began to wait; null: none (as far as it knows). */
  let waitingSince: number | null = clock();
  let running: Promise<void> | null = null;
  let stopped = false;

  async function fileAll(force: boolean) {
    waitingSince = null;
    try {
      while (!stopped && (await fileSearchPending(db)) === FILING_BATCH) {
        // More waits: a send that came meanwhile goes first; the rest after the next quiet spell.
        if (!force && !quiet()) {
          waitingSince ??= clock();
          return;
        }
      }
    } catch (error) {
      waitingSince ??= clock();
      if (!stopped) logger.error('[chat] filing search pieces failed:', error);
    }
  }

  function run(force: boolean): Promise<void> {
    running ??= fileAll(force).finally(() => (running = null));
    return running;
  }

  const timer = setInterval(
    () => {
      if (running || stopped || waitingSince === null) return;
      const overdue = clock() - waitingSince >= settings.maxWaitMs;
      if (overdue || quiet()) void run(overdue);
    },
    Math.max(20, Math.min(250, settings.quietMs / 2)),
  );
  timer.unref();

  return {
    wrote() {
      lastWrite = clock();
      waitingSince ??= lastWrite;
    },
    holdWhile(replying: () => boolean) {
      busy = replying;
    },
    async settle() {
      while (running) await running;
      await run(true);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await running;
    },
  };
}

/** A stored turn of a conversation, as the model is given it. */
export interface StoredTurn {
  role: 'user' | 'assistant';
  content: string;
}

type QuestionValues =
  'userId' | 'sessionId' | 'title' | 'text' | 'at' | 'rateKey' | 'rateLimit' | 'historyTurns';

/**
 * `storeQuestion`'s statement: for a new session or the caller's, with its history or without, and
 * `extra` columns (`compiledWith`).
 */
function question(
  p: Placeholders<QuestionValues>,
  extra: SQL,
  created: boolean,
  withHistory: boolean,
) {
  const history = withHistory
    ? sql`, (select coalesce(json_agg(json_build_object('role', t.role, 'content', t.content)
          order by t.created_at, t.id), '[]'::json)
        from (select role, content, created_at, id from ${chatMessages}
          where session_id = s.id order by created_at desc, id desc limit ${p.historyTurns}) t)
        as history`
    : sql``;
  const sentBefore = sql`(select count(*)::int from (
      select 1 from ${chatMessages} where user_id = ${p.userId} and role = 'user'
      limit ${TEN_MESSAGES}) earlier)`;
  const session = created
    ? sql`s as (
        insert into ${chatSessions}
          (user_id, title, created_at, last_message_at, message_count, search_pending)
        values (${p.userId}, ${p.title}, ${p.at}::timestamptz, ${p.at}::timestamptz, 1,
          array[${chunkPiece(p.text)}])
        returning id, thread_id)`
    : sql`s as (
        update ${chatSessions} cs set last_message_at = ${p.at}::timestamptz,
          message_count = cs.message_count + 1, archived_at = null,
          search_pending = array_append(cs.search_pending, ${chunkPiece(p.text)})
        where cs.id = ${p.sessionId} and cs.user_id = ${p.userId}
        returning cs.id, cs.thread_id)`;
  return sql`
    with ${session},
    m as (
      insert into ${chatMessages} (session_id, user_id, role, content, created_at)
      select id, ${p.userId}, 'user', ${p.text}, ${p.at}::timestamptz from s)
    select s.id, s.thread_id, e.n as sent_before,
      (e.n + 1 <> ${TEN_MESSAGES} and ${withinLimit(p.rateKey, p.rateLimit)}) as commit_now${history}${extra}
    from s, (select ${sentBefore} as n) e`;
}
const questions = {
  created: compiledWith<QuestionValues>((p, extra) => question(p, extra, true, false)),
  continued: compiledWith<QuestionValues>((p, extra) => question(p, extra, false, false)),
  continuedWithHistory: compiledWith<QuestionValues>((p, extra) => question(p, extra, false, true)),
};

/**
 * Stores a student's message in ONE statement (issue 26: a send made eleven round trips before the
 * model was called): the session — a new one titled from the message, or the
 * caller's `sessionId` when it is the student's (the update takes its row lock; null when it is not:
 * nothing is written, and the caller answers 404) — gets the message, its activity and count,
 * and the message's search piece, added to `search_pending` for the search filer: re-indexing a
 * chunk is work of PGlite's one thread that a class's sends all waited for before the model was
 * called. And the student's earlier questions are
 * counted, up to TEN_MESSAGES (a count that stops there, not one that grows with the history), for
 * the 10th-message award. The caller holds the user's lock, taken in an earlier statement, so this
 * statement's snapshot sees every earlier send of the student, and no other write of this session
 * runs beside it. The sub-statements of one WITH do not see each other's rows, hence "before". So
 * are the session's last `historyTurns` stored turns before this message read (oldest first): what
 * the model sees of the conversation, in this statement rather than a round trip after it.
 * `commit_now` says that nothing is left to do but commit (the send within its rate limit, `rate`,
 * and no award to write): the transaction's `commitWhen`. `columns` are read in the statement too
 * (`Column`: the tutor's goals and recall), from its snapshot. The statement is `compiledWith` (one
 * of three shapes), its text made once for each list of columns.
 */
async function storeQuestion<C extends readonly AnyColumn[]>(
  q: Queryable,
  userId: string,
  sessionId: string | null,
  text: string,
  at: Date,
  rate: { key: string; limit: number },
  historyTurns: number,
  columns: C,
): Promise<{
  id: string;
  threadId: string;
  sentBefore: number;
  history: StoredTurn[];
  read: ColumnValues<C>;
} | null> {
  // A new session has no turns before this one.
  const statement =
    sessionId === null
      ? questions.created
      : historyTurns > 0
        ? questions.continuedWithHistory
        : questions.continued;
  const { result, read } = await statement(
    q,
    {
      userId,
      sessionId,
      title: sessionTitle(text),
      text,
      at: at.toISOString(),
      rateKey: rate.key,
      rateLimit: rate.limit,
      historyTurns,
    },
    columns,
  );
  const row = rowsOf(result)[0];
  if (!row) return null;
  return {
    id: String(row.id),
    threadId: String(row.thread_id),
    sentBefore: Number(row.sent_before),
    history: (jsonOf(row.history) ?? []) as StoredTurn[],
    read: read(row),
  };
}

/**
 * Stores a finished reply in ONE statement (issue 26: it took five, each a round trip while other
 * replies stream): the message, stamped strictly after the session's last message so that a fast
 * reply never sorts before its question, the session's activity and count, and its search piece,
 * added to `search_pending` for the search filer. The caller holds the session's lock, taken in an
 * earlier statement, so this statement's snapshot sees the session's last message.
 */
const reply = compiled<'userId' | 'sessionId' | 'reply' | 'at'>(
  (p) => sql`
    with s as (
      update ${chatSessions} cs set
        last_message_at = greatest(${p.at}::timestamptz,
          cs.last_message_at + interval '1 millisecond'),
        message_count = cs.message_count + 1,
        search_pending = array_append(cs.search_pending, ${chunkPiece(p.reply)})
      where cs.id = ${p.sessionId} and cs.user_id = ${p.userId}
      returning cs.id, cs.last_message_at),
    m as (
      insert into ${chatMessages} (session_id, user_id, role, content, created_at)
      select id, ${p.userId}, 'assistant', ${p.reply}, last_message_at from s)
    select true as commit_now`,
);

async function storeReply(q: Queryable, userId: string, sessionId: string, text: string, at: Date) {
  await reply(q, {
    userId,
    sessionId,
    reply: text,
    at: at.toISOString(),
  });
}

/** The user's lock, then the session's (`finish`): its row when it is the user's. */
const lockSession = compiled<'userId' | 'sessionId'>(
  (p) => sql`
    select s.id from (${userLock(p.userId)}) first, ${chatSessions} s
    where s.id = ${p.sessionId} and s.user_id = ${p.userId} for update of s`,
);

/**
 * Rebuilds the search chunks of the sessions `where` selects (`s` is the session) from their titles
 * and messages, chunked as migration 0012 does: for rows written behind the service's back (benches,
 * seeded tests).
 */
export async function reindexSessions(q: Queryable, where: SQL) {
  await q.execute(sql`delete from ${chatSearchChunks} c using ${chatSessions} s
    where c.session_id = s.id and ${where}`);
  await q.execute(sql`update ${chatSessions} s set search_pending = null
    where s.search_pending is not null and ${where}`);
  await q.execute(sql`insert into ${chatSearchChunks} (session_id, seq, text)
    select s.id, 0, lower(s.title) from ${chatSessions} s where ${where}`);
  await q.execute(sql`insert into ${chatSearchChunks} (session_id, seq, text)
    select session_id, seq, string_agg(piece, '' order by created_at, id)
    from (
      select m.session_id, m.created_at, m.id, chr(1) || lower(m.content) as piece,
        1 + (sum(length(chr(1) || lower(m.content)))
          over (partition by m.session_id order by m.created_at, m.id)
          - length(chr(1) || lower(m.content)))::bigint / ${CHUNK_CHARS} as seq
      from ${chatMessages} m join ${chatSessions} s on s.id = m.session_id where ${where}
    ) pieces
    group by session_id, seq`);
}

/**
 * The sessions containing `needle` (non-empty): one of its chunks matches, through the trigram
 * index (LIKE, escaped); a needle shorter than a trigram goes through the index of the characters
 * each chunk holds, then `strpos`. Or it is one of `pending` (`pendingMatches`).
 */
function searchMatch(needle: string, pending: string[]): SQL {
  const inChunk =
    [...needle].length < 3
      ? sql`c.chars @> string_to_array(lower(${needle}), null)
          and strpos(c.text, lower(${needle})) > 0`
      : sql`c.text like lower(${containsPattern(needle)}) escape '\\'`;
  const chunked = sql`${chatSessions.id} in (
    select c.session_id from ${chatSearchChunks} c where ${inChunk})`;
  // Without pending matches, the plain semi-join: PostgreSQL walks the student's sessions newest
  // first and stops at a page (0.4 ms for a common word in 10,000 sessions). With an OR beside it,
  // it reads every matching chunk first (12 ms), so only a search that needs the OR has it.
  const inChunks =
    pending.length === 0
      ? chunked
      : sql`(${chunked} or ${chatSessions.id} in (${sql.join(
          pending.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}))`;
  if (!needle.includes(SEPARATOR)) return inChunks;
  const like = (column: SQL) =>
    sql`lower(${column}) like lower(${containsPattern(needle)}) escape '\\'`;
  return sql`${inChunks} and (${like(sql`${chatSessions.title}`)} or exists (
    select 1 from ${chatMessages} m
    where m.session_id = ${chatSessions.id} and ${like(sql`m.content`)}))`;
}

/**
 * The student's sessions whose messages waiting to be filed (`search_pending`; a new session's
 * title has no chunk yet either) contain `needle`: few rows, through the partial index of the
 * sessions that have some. Sessions stay there only until the next quiet spell (`searchFiler`).
 * The pieces are joined as they are: each starts with chr(1), so a needle without it never
 * matches across two, as in a chunk.
 */
async function pendingMatches(q: Queryable, userId: string, needle: string): Promise<string[]> {
  const rows = await q
    .select({ id: chatSessions.id })
    .from(chatSessions)
    .where(
      and(
        eq(chatSessions.userId, userId),
        isNotNull(chatSessions.searchPending),
        sql`(strpos(array_to_string(${chatSessions.searchPending}, ''), lower(${needle})) > 0
          or strpos(lower(${chatSessions.title}), lower(${needle})) > 0)`,
      ),
    );
  return rows.map((r) => r.id);
}

/**
 * Search counts matching sessions up to this many (beyond the page asked for): counting every match
 * of a common word would read most of a student's sessions, while a page reads only its own.
 */
export const SEARCH_COUNT_LIMIT = 1000;

const TEN_MESSAGES_KEY = 'chat:ten-messages';
const TEN_MESSAGES = 10;

/** A date of the account export (auth's GET /export). */
const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** How many messages the account export reads at a time. */
const EXPORT_PAGE = 1000;

/** One chat of the account export: its fields, then its messages page by page. */
interface ChatExport {
  chat: Record<string, unknown>;
  messages: AsyncIterable<Record<string, unknown>[]>;
}

export function createChatService({ db, now, config, logger }: Deps, ledger: PointsLedger) {
  const filer = searchFiler(db, config.chat.searchFiling, logger);
  /**
   * Counts one session write (rename, archive, delete …) of the student against the shared limit
   * (http/rate-limit.ts), before any work: a flood is refused at the cost of one statement.
   */
  const writing = (userId: string) =>
    enforce(db, `chat-write:${userId}`, config.limits.chatWrites, now(), CHAT_MESSAGES.tooFast);

  async function ownSession(q: Queryable, userId: string, id: string, lock = false) {
    if (!isUuid(id)) throw new AppError(404, CHAT_MESSAGES.notFound);
    const query = q
      .select()
      .from(chatSessions)
      .where(and(eq(chatSessions.id, id), eq(chatSessions.userId, userId)))
      .limit(1);
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw new AppError(404, CHAT_MESSAGES.notFound);
    return row;
  }

  async function setArchived(userId: string, id: string, archived: boolean) {
    if (!isUuid(id)) throw new AppError(404, CHAT_MESSAGES.notFound);
    await writing(userId);
    const [row] = await db
      .update(chatSessions)
      .set({ archivedAt: archived ? now() : null })
      .where(and(eq(chatSessions.id, id), eq(chatSessions.userId, userId)))
      .returning(sessionFields);
    if (!row) throw new AppError(404, CHAT_MESSAGES.notFound);
    return publicSession(row);
  }

  /**
   * A page of the caller's active or archived sessions with the count of all of them, in one
   * statement (`count(*) over ()`), built once and prepared on PostgreSQL: the session list is read
   * on every screen of the app. A page past the end has no row to carry the count, so only then is
   * the count asked on its own.
   */
  function listing(archived: boolean) {
    const scope = and(
      eq(chatSessions.userId, sql.placeholder('userId')),
      archived ? isNotNull(chatSessions.archivedAt) : isNull(chatSessions.archivedAt),
    );
    const order = archived
      ? [desc(chatSessions.archivedAt), desc(chatSessions.id)]
      : [desc(chatSessions.lastMessageAt), desc(chatSessions.id)];
    const name = archived ? 'chat_sessions_archived' : 'chat_sessions_active';
    return {
      page: db
        .select({ ...sessionFields, total: sql<number>`count(*) over ()`.mapWith(Number) })
        .from(chatSessions)
        .where(scope)
        .orderBy(...order)
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(`${name}_page`),
      total: db.select({ n: count() }).from(chatSessions).where(scope).prepare(`${name}_total`),
    };
  }
  // Built on first use, so that making the service asks nothing of the database.
  let listings: { active: ReturnType<typeof listing>; archived: ReturnType<typeof listing> };

  async function list(userId: string, archived: boolean, page: Page) {
    listings ??= { active: listing(false), archived: listing(true) };
    const listed = archived ? listings.archived : listings.active;
    const rows = await listed.page.execute({ userId, limit: page.limit, offset: offsetOf(page) });
    let total = rows[0]?.total;
    if (total === undefined) {
      total = page.page === 1 ? 0 : ((await listed.total.execute({ userId }))[0]?.n ?? 0);
    }
    return paged('sessions', rows.map(publicSession), total, page);
  }

  /** One chat's messages in order, EXPORT_PAGE at a time. */
  async function* messagePages(sessionId: string, userId: string) {
    for (let offset = 0; ; offset += EXPORT_PAGE) {
      const page = await db
        .select()
        .from(chatMessages)
        .where(and(eq(chatMessages.sessionId, sessionId), eq(chatMessages.userId, userId)))
        .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
        .limit(EXPORT_PAGE)
        .offset(offset);
      if (page.length > 0)
        yield page.map((message) => ({
          id: message.id,
          role: message.role,
          content: message.content,
          created_at: iso(message.createdAt),
        }));
      if (page.length < EXPORT_PAGE) return;
    }
  }

  return {
    listActive: (userId: string, page: Page) => list(userId, false, page),
    listArchived: (userId: string, page: Page) => list(userId, true, page),

    async get(userId: string, id: string) {
      const session = await ownSession(db, userId, id);
      const messages = await db
        .select()
        .from(chatMessages)
        .where(eq(chatMessages.sessionId, session.id))
        .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id));
      return {
        ...publicSession(session),
        messages: messages.map((m) => ({
          id: m.id,
          role: m.role,
          content: m.content,
          createdAt: m.createdAt.toISOString(),
        })),
      };
    },

    async rename(userId: string, id: string, title: string) {
      if (!isUuid(id)) throw new AppError(404, CHAT_MESSAGES.notFound);
      await writing(userId);
      // The title and its search chunk change together, under the session's row lock.
      const row = await transaction(
        db,
        async (tx) => {
          const [updated] = await tx
            .update(chatSessions)
            .set({ title })
            .where(and(eq(chatSessions.id, id), eq(chatSessions.userId, userId)))
            .returning(sessionFields);
          if (!updated) throw new AppError(404, CHAT_MESSAGES.notFound);
          await indexTitle(tx, id, title);
          return updated;
        },
        { bounds: REQUEST_BOUNDS },
      );
      return publicSession(row);
    },

    /** Deletes a session of the caller; `archivedOnly` for DELETE /sessions/{id}/archive. */
    async remove(userId: string, id: string, archivedOnly = false) {
      const missing = archivedOnly ? CHAT_MESSAGES.archivedNotFound : CHAT_MESSAGES.notFound;
      if (!isUuid(id)) throw new AppError(404, missing);
      await writing(userId);
      const rows = await db
        .delete(chatSessions)
        .where(
          and(
            eq(chatSessions.id, id),
            eq(chatSessions.userId, userId),
            archivedOnly ? isNotNull(chatSessions.archivedAt) : undefined,
          ),
        )
        .returning({ id: chatSessions.id });
      if (rows.length === 0) throw new AppError(404, missing);
    },

    archive: (userId: string, id: string) => setArchived(userId, id, true),
    unarchive: (userId: string, id: string) => setArchived(userId, id, false),

    async archiveAll(userId: string) {
      await writing(userId);
      await db
        .update(chatSessions)
        .set({ archivedAt: now() })
        .where(and(eq(chatSessions.userId, userId), isNull(chatSessions.archivedAt)));
    },

    async deleteAll(userId: string) {
      await writing(userId);
      await db.delete(chatSessions).where(eq(chatSessions.userId, userId));
    },

    /**
     * Sessions, archived ones too (marked), whose title or any message contains `text`,
     * case-insensitively: a match in one of the session's search chunks (see `appendToChunks`), newest
     * activity first. `total` is exact up to
     * SEARCH_COUNT_LIMIT matches; past it, it says "at least that many".
     */
    async search(userId: string, text: string, page: Page) {
      const needle = text.trim();
      if (needle === '') return paged('sessions', [], 0, page);
      // Archived chats are found too (a student looks for a word, not for where the chat is kept),
      // each marked, so the client can offer Unarchive.
      const matched = and(
        eq(chatSessions.userId, userId),
        searchMatch(needle, await pendingMatches(db, userId, needle)),
      );
      const rows = await db
        .select({ ...sessionFields, archivedAt: chatSessions.archivedAt })
        .from(chatSessions)
        .where(matched)
        .orderBy(desc(chatSessions.lastMessageAt), desc(chatSessions.id))
        .limit(page.limit)
        .offset(offsetOf(page));
      // A short last page tells the total without counting; otherwise matches are counted up to
      // SEARCH_COUNT_LIMIT, or one past this page when that is further (so `hasMore` stays true).
      let total = offsetOf(page) + rows.length;
      if (rows.length === page.limit || (rows.length === 0 && page.page > 1)) {
        const upTo = Math.max(SEARCH_COUNT_LIMIT, offsetOf(page) + page.limit + 1);
        const hits = db
          .select({ one: sql`1` })
          .from(chatSessions)
          .where(matched)
          .limit(upTo);
        total = (await db.select({ n: count() }).from(hits.as('hits')))[0]?.n ?? 0;
      }
      const hits = rows.map((r) => ({ ...publicSession(r), archived: r.archivedAt !== null }));
      return paged('sessions', hits, total, page);
    },

    /**
     * Stores the student's message: rate limit, session (found or created, titled from the first
     * message), the message, and the one-time award for the 10th message, in one transaction.
     * `columns` are read in the message's statement (`storeQuestion`), answered as `read`.
     */
    async begin<const C extends readonly AnyColumn[]>(
      userId: string,
      sessionId: string | null | undefined,
      text: string,
      historyTurns: number,
      columns: C,
    ) {
      const at = now();
      const { rateLimit, rateWindowMs } = config.chat;
      const rule = { limit: rateLimit, windowMs: rateWindowMs };
      const rateKey = `chat-send:${userId}`;
      const taken = await transaction(
        db,
        async (tx) => {
          const created = !sessionId || isClientSessionId(sessionId);
          if (!created && !isUuid(sessionId!)) throw new AppError(404, CHAT_MESSAGES.notFound);
          // Two statements sent together, in one write with the `begin` (issue 26: every round trip
          // before the model is waited for, and on PGlite a turn of the one thread), run in order:
          // the user's lock and the shared fixed-window limit (http/rate-limit.ts), the lock first,
          // counted in this transaction (a send that fails is not counted); then the rest, in one
          // statement that starts once the lock is held (`storeQuestion`). A refused send's
          // question is rolled back with its count.
          const [, stored] = await inOrder([
            () => enforce(tx, rateKey, rule, at, CHAT_MESSAGES.rateLimited, userId),
            () =>
              storeQuestion(
                tx,
                userId,
                created ? null : sessionId!,
                text,
                at,
                { key: rateKey, limit: rule.limit },
                historyTurns,
                columns,
              ),
          ]);
          // Someone else's session (or none): nothing was written, and the count rolls back too.
          if (!stored) throw new AppError(404, CHAT_MESSAGES.notFound);
          // The 10th message: the award is written once (its key), under the user's lock, by the
          // send that makes ten. Not tried again by every later send (the count stops at ten): a
          // statement less before the model for nearly every send (issue 26). Sends after deleted
          // chats that make ten again find the key used.
          if (stored.sentBefore + 1 === TEN_MESSAGES) {
            await ledger.award(tx, userId, {
              key: TEN_MESSAGES_KEY,
              amount: POINTS.tenMessagesAward,
              category: 'chat',
              description: `Sent ${TEN_MESSAGES} messages to Ayah`,
              at,
            });
          }
          return {
            session: { id: stored.id, threadId: stored.threadId },
            created,
            history: stored.history,
            read: stored.read,
          };
        },
        // On PGlite the question's statement commits it when it says so (issue 26): the send
        // was taken, within the limit, with no award to write. PGlite runs one transaction at a
        // time, and held it idle while this thread, busy with a class's requests, sent the commit.
        { bounds: REQUEST_BOUNDS, commitWhen: 'commit_now' },
      );
      // Told once its piece waits (not before: a filing that ran meanwhile would not have seen it).
      filer.wrote();
      return taken;
    },

    /** Stores the complete reply. */
    async finish(userId: string, sessionId: string, reply: string) {
      await transaction(
        db,
        async (tx) => {
          // The user's lock, then the session's: the same order as every writer of the session.
          // Sent together with the reply, in one write with the `begin` (issue 26): the reply's
          // statement starts once the locks are held, and writes nothing to a session deleted
          // while the reply was being written (its every part hangs on the session's row).
          await inOrder([
            () => lockSession(tx, { userId, sessionId }),
            () => storeReply(tx, userId, sessionId, reply, now()),
          ]);
        },
        // Nothing is left to decide once the reply's statement has run: on PGlite it commits.
        { bounds: REPLY_BOUNDS, commitWhen: 'commit_now' },
      );
      filer.wrote();
    },

    /** Adds every message waiting for the search chunks to them now (`searchFiler`). */
    settleSearch: () => filer.settle(),

    /** The search filer waits while `replying()`: the chat routes' replies being written. */
    holdSearchFilingWhile: (replying: () => boolean) => filer.holdWhile(replying),

    /** Stops the search filer (the app's `stop`); what still waits is filed after the next start. */
    stop: () => filer.stop(),

    async recordSafety(userId: string, sessionId: string, event: SafetyEvent) {
      await db.insert(safetyEvents).values({ userId, sessionId, ...event, createdAt: now() });
    },

    /**
     * The user's chats for the account export (auth's GET /export writes each part as it comes):
     * each chat's fields, and its messages EXPORT_PAGE at a time, so an export never holds more than
     * one page of one chat's messages, however long the chats.
     */
    async *exportChats(userId: string): AsyncGenerator<ChatExport> {
      const sessions = await db
        .select()
        .from(chatSessions)
        .where(eq(chatSessions.userId, userId))
        .orderBy(asc(chatSessions.createdAt), asc(chatSessions.id));
      for (const session of sessions) {
        yield {
          chat: {
            id: session.id,
            title: session.title,
            created_at: iso(session.createdAt),
            last_message_at: iso(session.lastMessageAt),
            archived_at: iso(session.archivedAt),
          },
          messages: messagePages(session.id, userId),
        };
      }
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
