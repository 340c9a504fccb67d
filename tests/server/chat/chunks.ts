/**
 * The chat search chunks as the tests check them: a session's chunks past the title's, and what
 * they should be (server/chat/service.ts): each stored message in turn, `chr(1) || lower(content)`,
 * joining the last chunk while that stays within CHUNK_CHARS, else starting the next one.
 */
import { sql } from 'drizzle-orm';

import { CHUNK_CHARS } from '../../../server/chat/service';
import type { Harness } from '../harness';

/** The texts of the session's chunks after the title's, in order. */
export async function chunkTexts(h: Harness, sessionId: string): Promise<string[]> {
  const rows = await h.sql<{ text: string }>(
    sql`select text from chat_search_chunks where session_id = ${sessionId} and seq > 0 order by seq`,
  );
  return rows.map((r) => r.text);
}

/**
 * `chunks` (after the title's) with `pieces` appended one at a time: each joins the last chunk while
 * that stays within CHUNK_CHARS, counted in characters as PostgreSQL's `length` counts them, else
 * starts the next one.
 */
export function appendedInTurn(chunks: readonly string[], pieces: readonly string[]): string[] {
  const out = [...chunks];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (last !== undefined && [...last].length + [...piece].length <= CHUNK_CHARS)
      out[out.length - 1] = last + piece;
    else out.push(piece);
  }
  return out;
}

/** The chunks the session's stored messages make when each is appended in turn. */
export async function packedChunks(h: Harness, sessionId: string): Promise<string[]> {
  const messages = await h.sql<{ content: string }>(
    sql`select content from chat_messages where session_id = ${sessionId} order by created_at, id`,
  );
  return appendedInTurn(
    [],
    messages.map(({ content }) => `\u0001${content.toLowerCase()}`),
  );
}
