/**
 * Chat sessions and their messages, over the database. A send is three steps:
 * `begin` (one transaction: lock the user, apply the rate limit, find or create the session, store
 * the student's message, award the 10th message), then the reply is produced (tutor.ts), then
 * `finish` stores the complete reply. A reply that fails midway never reaches `finish`: the student's
 * message stays and nothing half-written is stored.
 */
import type { SQL } from 'drizzle-orm';
import { and, asc, count, desc, eq, isNotNull, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../db';
import { transaction } from '../db';
import { chatMessages, chatSessions, safetyEvents } from '../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../http/errors';
import { enforce } from '../http/rate-limit';
import { POINTS, isClientSessionId, sessionTitle } from 'ayah-coach/rules';
import { lockUser } from '../db/locks';
import type { PointsLedger } from '../ports';
import type { Page } from '../http/paging';
import { isUuid } from '../http/ids';
import { offsetOf, paged } from '../http/paging';

export const CHAT_MESSAGES = {
  notFound: 'Chat session not found',
  archivedNotFound: 'Archived chat session not found',
  deleted: 'Chat deleted successfully',
  allArchived: 'All chats archived successfully',
  allDeleted: 'All chats deleted successfully',
  rateLimited: 'You are sending messages too quickly. Please wait a moment and try again.',
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
 * Search document. Each session keeps `search_text`: `lower(title)`, then `chr(1) || lower(content)`
 * for every message in order, updated in the statement that stores a message (and rebuilt on rename).
 * One trigram index over it makes search one match per session instead of one per message. A needle
 * without chr(1) that occurs in the document lies inside one piece, so it occurs in the title or in a
 * message: exactly the matches of `lower(title|content) like lower('%needle%')`. A needle with chr(1)
 * (a control character, allowed in messages) is checked against the title and messages themselves.
 */
const SEPARATOR = '\u0001';

/** `search_text` with one more message appended. */
const withMessage = (content: string) =>
  sql`${chatSessions.searchText} || chr(1) || lower(${content})`;

/** The whole document of the session being updated, from its messages and `title`. */
export const searchDocument = (title: SQL) => sql`lower(${title}) || coalesce((
  select string_agg(chr(1) || lower(m.content), '' order by m.created_at, m.id)
  from ${chatMessages} m where m.session_id = ${chatSessions.id}), '')`;

/**
 * The sessions containing `needle` (non-empty), through the trigram index (LIKE, escaped); a needle
 * shorter than a trigram goes through the index of the characters each document holds
 * (`search_chars`, generated from `search_text`), then `strpos`.
 */
function searchMatch(needle: string): SQL {
  const inDocument =
    [...needle].length < 3
      ? sql`${chatSessions.searchChars} @> string_to_array(lower(${needle}), null)
          and strpos(${chatSessions.searchText}, lower(${needle})) > 0`
      : sql`${chatSessions.searchText} like lower(${containsPattern(needle)}) escape '\\'`;
  if (!needle.includes(SEPARATOR)) return inDocument;
  const like = (column: SQL) =>
    sql`lower(${column}) like lower(${containsPattern(needle)}) escape '\\'`;
  return sql`${inDocument} and (${like(sql`${chatSessions.title}`)} or exists (
    select 1 from ${chatMessages} m
    where m.session_id = ${chatSessions.id} and ${like(sql`m.content`)}))`;
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

export function createChatService({ db, now, config }: Deps, ledger: PointsLedger) {
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
      // The session is locked first, so that the search document rebuilt below (in a statement of
      // its own, seeing what committed before it) misses no message stored meanwhile.
      const row = await transaction(db, async (tx) => {
        await ownSession(tx, userId, id, true);
        const [updated] = await tx
          .update(chatSessions)
          .set({ title, searchText: searchDocument(sql`${title}`) })
          .where(eq(chatSessions.id, id))
          .returning(sessionFields);
        return updated!;
      });
      return publicSession(row);
    },

    /** Deletes a session of the caller; `archivedOnly` for DELETE /sessions/{id}/archive. */
    async remove(userId: string, id: string, archivedOnly = false) {
      const missing = archivedOnly ? CHAT_MESSAGES.archivedNotFound : CHAT_MESSAGES.notFound;
      if (!isUuid(id)) throw new AppError(404, missing);
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
      await db
        .update(chatSessions)
        .set({ archivedAt: now() })
        .where(and(eq(chatSessions.userId, userId), isNull(chatSessions.archivedAt)));
    },

    async deleteAll(userId: string) {
      await db.delete(chatSessions).where(eq(chatSessions.userId, userId));
    },

    /**
     * Sessions whose title or any message contains `text`, case-insensitively: a match in one
     * session's `search_text` (see `searchDocument`), newest activity first. `total` is exact up to
     * SEARCH_COUNT_LIMIT matches; past it, it says "at least that many".
     */
    async search(userId: string, text: string, page: Page) {
      const needle = text.trim();
      if (needle === '') return paged('sessions', [], 0, page);
      const matched = and(
        eq(chatSessions.userId, userId),
        isNull(chatSessions.archivedAt),
        searchMatch(needle),
      );
      const rows = await db
        .select(sessionFields)
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
      return paged('sessions', rows.map(publicSession), total, page);
    },

    /**
     * Stores the student's message: rate limit, session (found or created, titled from the first
     * message), the message, and the one-time award for the 10th message, in one transaction.
     */
    async begin(userId: string, sessionId: string | null | undefined, text: string) {
      const at = now();
      const { rateLimit, rateWindowMs } = config.chat;
      return transaction(db, async (tx) => {
        await lockUser(tx, userId);
        // The shared fixed-window limit (http/rate-limit.ts), counted in this transaction: a send
        // that fails is not counted.
        await enforce(
          tx,
          `chat-send:${userId}`,
          { limit: rateLimit, windowMs: rateWindowMs },
          at,
          CHAT_MESSAGES.rateLimited,
        );

        let session: SessionRow;
        const created = !sessionId || isClientSessionId(sessionId);
        if (created) {
          const [row] = await tx
            .insert(chatSessions)
            .values({
              userId,
              title: sessionTitle(text),
              searchText: sql`lower(${sessionTitle(text)})`,
              createdAt: at,
              lastMessageAt: at,
            })
            .returning();
          session = row!;
        } else {
          session = await ownSession(tx, userId, sessionId!, true);
        }
        const [message] = await tx
          .insert(chatMessages)
          .values({ sessionId: session.id, userId, role: 'user', content: text, createdAt: at })
          .returning({ id: chatMessages.id });
        const [updated] = await tx
          .update(chatSessions)
          .set({
            lastMessageAt: at,
            messageCount: sql`${chatSessions.messageCount} + 1`,
            searchText: withMessage(text),
            archivedAt: null,
          })
          .where(eq(chatSessions.id, session.id))
          .returning();

        const [sent] = await tx
          .select({ n: count() })
          .from(chatMessages)
          .where(and(eq(chatMessages.userId, userId), eq(chatMessages.role, 'user')));
        if ((sent?.n ?? 0) >= TEN_MESSAGES) {
          await ledger.award(tx, userId, {
            key: TEN_MESSAGES_KEY,
            amount: POINTS.tenMessagesAward,
            category: 'chat',
            description: `Sent ${TEN_MESSAGES} messages to Ayah`,
            at,
          });
        }
        return { session: updated!, messageId: message!.id, created, at };
      });
    },

    /**
     * The session's last `limit` stored turns before the message `messageId` (stored at `at`), oldest
     * first: what the model sees of the conversation, whatever the client sends.
     */
    async turnsBefore(sessionId: string, messageId: string, at: Date, limit: number) {
      const rows = await db
        .select({ role: chatMessages.role, content: chatMessages.content })
        .from(chatMessages)
        .where(
          and(
            eq(chatMessages.sessionId, sessionId),
            ne(chatMessages.id, messageId),
            lte(chatMessages.createdAt, at),
          ),
        )
        .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
        .limit(limit);
      return rows.reverse();
    },

    /** Stores the complete reply. */
    async finish(userId: string, sessionId: string, reply: string) {
      await transaction(db, async (tx) => {
        await lockUser(tx, userId);
        const [session] = await tx
          .select({ id: chatSessions.id, lastMessageAt: chatSessions.lastMessageAt })
          .from(chatSessions)
          .where(and(eq(chatSessions.id, sessionId), eq(chatSessions.userId, userId)))
          .for('update');
        // Deleted while the reply was being written: nothing to store it in.
        if (!session) return;
        // Strictly after the question, so a fast reply never sorts before it.
        const at = new Date(Math.max(now().getTime(), session.lastMessageAt.getTime() + 1));
        await tx
          .insert(chatMessages)
          .values({ sessionId, userId, role: 'assistant', content: reply, createdAt: at });
        await tx
          .update(chatSessions)
          .set({
            lastMessageAt: at,
            messageCount: sql`${chatSessions.messageCount} + 1`,
            searchText: withMessage(reply),
          })
          .where(eq(chatSessions.id, sessionId));
      });
    },

    async recordSafety(
      userId: string,
      sessionId: string,
      event: {
        source: 'local' | 'moderation';
        direction: 'student' | 'reply';
        categories: string[];
      },
    ) {
      await db.insert(safetyEvents).values({ userId, sessionId, ...event, createdAt: now() });
    },

    /** The user's chats and their messages, for the account export (auth's GET /export). */
    async exportRows(userId: string) {
      const sessions = await db
        .select()
        .from(chatSessions)
        .where(eq(chatSessions.userId, userId))
        .orderBy(asc(chatSessions.createdAt));
      const messages = await db
        .select()
        .from(chatMessages)
        .where(eq(chatMessages.userId, userId))
        .orderBy(asc(chatMessages.createdAt));
      return {
        chats: sessions.map((session) => ({
          id: session.id,
          title: session.title,
          created_at: iso(session.createdAt),
          last_message_at: iso(session.lastMessageAt),
          archived_at: iso(session.archivedAt),
          messages: messages
            .filter((message) => message.sessionId === session.id)
            .map((message) => ({
              id: message.id,
              role: message.role,
              content: message.content,
              created_at: iso(message.createdAt),
            })),
        })),
      };
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
