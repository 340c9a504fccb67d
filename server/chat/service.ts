/**
 * Chat sessions and their messages, over the database. A send is three steps:
 * `begin` (one transaction: lock the user, apply the rate limit, find or create the session, store
 * the student's message, award the 10th message), then the reply is produced (tutor.ts), then
 * `finish` stores the complete reply. A reply that fails midway never reaches `finish`: the student's
 * message stays and nothing half-written is stored.
 */
import { and, asc, count, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../db';
import { transaction } from '../db';
import { chatMessages, chatSessions, safetyEvents } from '../db/schema';
import type { Deps } from '../deps';
import { AppError } from '../http/errors';
import { isClientSessionId, sessionTitle } from '../../src/lib/chat';
import { POINTS } from '../../src/lib/limits';
import { awardOnce, lockUser } from '../points/ledger';
import type { Page } from './paging';
import { isUuid, offsetOf, paged } from './paging';

export const CHAT_SERVER_MESSAGES = {
  notFound: 'Chat session not found',
  archivedNotFound: 'Archived chat session not found',
  deleted: 'Chat deleted successfully',
  allArchived: 'All chats archived successfully',
  allDeleted: 'All chats deleted successfully',
  rateLimited: 'You are sending messages too quickly. Please wait a moment and try again.',
} as const;

type SessionRow = typeof chatSessions.$inferSelect;

export function publicSession(row: SessionRow) {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    lastMessageAt: row.lastMessageAt.toISOString(),
    messageCount: row.messageCount,
  };
}

export type PublicSession = ReturnType<typeof publicSession>;

/** `%text%` for LIKE, with the pattern characters (`%`, `_`, `\`) of the text escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const TEN_MESSAGES_KEY = 'chat:ten-messages';
const TEN_MESSAGES = 10;

export function createChatService({ db, now, config }: Deps) {
  async function ownSession(q: Queryable, userId: string, id: string, lock = false) {
    if (!isUuid(id)) throw new AppError(404, CHAT_SERVER_MESSAGES.notFound);
    const query = q
      .select()
      .from(chatSessions)
      .where(and(eq(chatSessions.id, id), eq(chatSessions.userId, userId)))
      .limit(1);
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw new AppError(404, CHAT_SERVER_MESSAGES.notFound);
    return row;
  }

  async function setArchived(userId: string, id: string, archived: boolean) {
    if (!isUuid(id)) throw new AppError(404, CHAT_SERVER_MESSAGES.notFound);
    const [row] = await db
      .update(chatSessions)
      .set({ archivedAt: archived ? now() : null })
      .where(and(eq(chatSessions.id, id), eq(chatSessions.userId, userId)))
      .returning();
    if (!row) throw new AppError(404, CHAT_SERVER_MESSAGES.notFound);
    return publicSession(row);
  }

  async function list(userId: string, archived: boolean, page: Page) {
    const scope = and(
      eq(chatSessions.userId, userId),
      archived ? isNotNull(chatSessions.archivedAt) : isNull(chatSessions.archivedAt),
    );
    const order = archived
      ? [desc(chatSessions.archivedAt), desc(chatSessions.id)]
      : [desc(chatSessions.lastMessageAt), desc(chatSessions.id)];
    const rows = await db
      .select()
      .from(chatSessions)
      .where(scope)
      .orderBy(...order)
      .limit(page.limit)
      .offset(offsetOf(page));
    const [total] = await db.select({ n: count() }).from(chatSessions).where(scope);
    return paged('sessions', rows.map(publicSession), total?.n ?? 0, page);
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
      if (!isUuid(id)) throw new AppError(404, CHAT_SERVER_MESSAGES.notFound);
      const [row] = await db
        .update(chatSessions)
        .set({ title })
        .where(and(eq(chatSessions.id, id), eq(chatSessions.userId, userId)))
        .returning();
      if (!row) throw new AppError(404, CHAT_SERVER_MESSAGES.notFound);
      return publicSession(row);
    },

    /** Deletes a session of the caller; `archivedOnly` for DELETE /sessions/{id}/archive. */
    async remove(userId: string, id: string, archivedOnly = false) {
      const missing = archivedOnly
        ? CHAT_SERVER_MESSAGES.archivedNotFound
        : CHAT_SERVER_MESSAGES.notFound;
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
     * Sessions whose title or any message contains `text`, case-insensitively. Both sides go through
     * PostgreSQL's `lower()`, which the trigram indexes (`lower(...) gin_trgm_ops`) are built on.
     */
    async search(userId: string, text: string, page: Page) {
      const needle = text.trim();
      if (needle === '') return paged('sessions', [], 0, page);
      const pattern = containsPattern(needle);
      const like = (column: unknown) => sql`lower(${column}) like lower(${pattern}) escape '\\'`;
      const hits = sql`(
        select m.session_id as id from ${chatMessages} m
          where m.user_id = ${userId} and ${like(sql`m.content`)}
        union
        select s.id from ${chatSessions} s
          where s.user_id = ${userId} and ${like(sql`s.title`)}
      )`;
      const matched = sql`${chatSessions.userId} = ${userId} and ${chatSessions.archivedAt} is null
        and ${chatSessions.id} in ${hits}`;
      const rows = await db
        .select()
        .from(chatSessions)
        .where(matched)
        .orderBy(desc(chatSessions.lastMessageAt), desc(chatSessions.id))
        .limit(page.limit)
        .offset(offsetOf(page));
      const total =
        rows.length < page.limit && (rows.length > 0 || page.page === 1)
          ? offsetOf(page) + rows.length
          : ((await db.select({ n: count() }).from(chatSessions).where(matched))[0]?.n ?? 0);
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
        const windowStart = new Date(at.getTime() - rateWindowMs);
        const recent = await tx
          .select({ createdAt: chatMessages.createdAt })
          .from(chatMessages)
          .where(
            and(
              eq(chatMessages.userId, userId),
              eq(chatMessages.role, 'user'),
              gt(chatMessages.createdAt, windowStart),
            ),
          )
          .orderBy(desc(chatMessages.createdAt))
          .limit(rateLimit);
        if (recent.length >= rateLimit) {
          const oldest = recent.at(-1)!.createdAt.getTime();
          const retry = Math.max(1, Math.ceil((oldest + rateWindowMs - at.getTime()) / 1000));
          throw new AppError(429, CHAT_SERVER_MESSAGES.rateLimited, {
            'Retry-After': String(retry),
          });
        }

        let session: SessionRow;
        if (!sessionId || isClientSessionId(sessionId)) {
          const [row] = await tx
            .insert(chatSessions)
            .values({ userId, title: sessionTitle(text), createdAt: at, lastMessageAt: at })
            .returning();
          session = row!;
        } else {
          session = await ownSession(tx, userId, sessionId, true);
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
            archivedAt: null,
          })
          .where(eq(chatSessions.id, session.id))
          .returning();

        const [sent] = await tx
          .select({ n: count() })
          .from(chatMessages)
          .where(and(eq(chatMessages.userId, userId), eq(chatMessages.role, 'user')));
        if ((sent?.n ?? 0) >= TEN_MESSAGES) {
          await awardOnce(tx, userId, {
            key: TEN_MESSAGES_KEY,
            amount: POINTS.tenMessagesAward,
            category: 'chat',
            description: `Sent ${TEN_MESSAGES} messages to Ayah`,
            at,
          });
        }
        return { session: updated!, messageId: message!.id };
      });
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
          .set({ lastMessageAt: at, messageCount: sql`${chatSessions.messageCount} + 1` })
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
  };
}

export type ChatService = ReturnType<typeof createChatService>;
