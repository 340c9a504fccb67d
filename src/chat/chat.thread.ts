import { isClientSessionId } from '../lib/chat';
import { welcomeBack } from '../lib/messages';
import type { ChatMessage, ChatRole, ChatSendRequest, ChatTurn } from './chat.adapter';

/**
 * Where a message of the thread stands. User messages and finished replies are `complete`; a reply is
 * `pending` until its first text arrives, `streaming` while it grows and `stopped` when the student
 * stopped it (the partial text stays).
 */
export type ChatEntryStatus = 'pending' | 'streaming' | 'stopped' | 'complete';

/** One message of the conversation as the chat shows it. */
export type ChatEntry = {
  id: string;
  role: ChatRole;
  content: string;
  status: ChatEntryStatus;
  /**
   * What the tutor is doing while the reply is written, from the stream's `status` events (e.g.
   * 'Checking the maths…'); shown beside the reply, never part of it, and gone with the next text.
   */
  activity?: string;
  /** ISO time; only for messages loaded from the server. */
  createdAt?: string;
};

/** Messages of a saved session, as the thread shows them. */
export function fromServer(messages: ChatMessage[]): ChatEntry[] {
  return messages.map(({ id, role, content, createdAt }) => ({
    id,
    role,
    content,
    createdAt,
    status: 'complete',
  }));
}

/** The assistant's greeting in a reopened session that has no messages yet. */
export function welcomeEntry(id: string, title: string): ChatEntry {
  return { id, role: 'assistant', content: welcomeBack(title), status: 'complete' };
}

/** The conversation as it is sent: every message with text, without the reply being awaited. */
export function toTurns(entries: ChatEntry[]): ChatTurn[] {
  return entries
    .filter((entry) => entry.status !== 'pending' && entry.content.trim() !== '')
    .map(({ role, content }) => ({ role, content }));
}

/** The last message, if it is a reply of Ayah. */
export function lastReply(entries: ChatEntry[]): ChatEntry | undefined {
  const last = entries.at(-1);
  return last?.role === 'assistant' ? last : undefined;
}

/** Replaces the last message (the reply) with `update` applied to it. */
export function updateReply(
  entries: ChatEntry[],
  update: (reply: ChatEntry) => Partial<ChatEntry>,
): ChatEntry[] {
  const reply = lastReply(entries);
  if (!reply) return entries;
  return [...entries.slice(0, -1), { ...reply, ...update(reply) }];
}

/** Appends a streamed chunk to the reply; what the tutor was doing is over. */
export function growReply(entries: ChatEntry[], text: string): ChatEntry[] {
  return updateReply(entries, (reply) => ({
    content: reply.content + text,
    status: 'streaming',
    activity: undefined,
  }));
}

/** Notes what the tutor is doing on the reply being written (a stream's `status`). */
export function noteActivity(entries: ChatEntry[], activity: string): ChatEntry[] {
  return updateReply(entries, () => ({ activity }));
}

/**
 * Removes the turn whose reply failed: the awaited reply and the user message before it (spec:
 * "the user message is removed").
 */
export function dropFailedTurn(entries: ChatEntry[]): ChatEntry[] {
  const withoutReply = lastReply(entries) ? entries.slice(0, -1) : entries;
  return withoutReply.at(-1)?.role === 'user' ? withoutReply.slice(0, -1) : withoutReply;
}

/** The user message of the last turn, for a retry. */
export function lastUserText(entries: ChatEntry[]): string | undefined {
  return entries.findLast((entry) => entry.role === 'user')?.content;
}

/** What a send carries: the conversation, the server's ids once known, and the tutor's context. */
export function requestBody(conversation: {
  messages: ChatEntry[];
  sessionId: string;
  threadId: string | null;
  dashboardData: Record<string, unknown>;
}): ChatSendRequest {
  const { sessionId, threadId } = conversation;
  return {
    messages: toTurns(conversation.messages),
    // A client id is unknown to the server: the first reply brings the server's own.
    ...(isClientSessionId(sessionId) ? {} : { sessionId }),
    ...(threadId ? { threadId } : {}),
    dashboardData: conversation.dashboardData,
  };
}

/** The reply awaited, before its first text. */
export function pendingReply(id: string): ChatEntry {
  return { id, role: 'assistant', content: '', status: 'pending' };
}
