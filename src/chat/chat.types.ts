/*
 * The chat in types: what its machines (the conversation, the saved chats, their search) hold
 * (context), hear (events) and tell the page (emitted). The wire shapes stay in `chat.adapter.ts`.
 */
import type { Notice } from '../lib/notices';
import type { ChatSearchHit, ChatSendRequest, ChatSession, ChatSessionPage } from './chat.adapter';
import type { ChatEntry } from './chat.thread';

// The conversation (chat.machine.ts).

export type ChatInput = {
  /** The signed-in user: their last conversation is restored and remembered. @default null */
  userId?: string | null;
  /** The `sessionId` URL parameter: that saved conversation is opened. @default null */
  sessionId?: string | null;
  /** Context for the tutor (the points context's tokens). @default {} */
  dashboardData?: Record<string, unknown>;
};

export type ChatContext = {
  userId: string | null;
  /** The conversation's id: a client id (`session_…`) until the server answers with its own. */
  sessionId: string;
  threadId: string | null;
  /** The saved conversation's title, once loaded; null for a conversation begun here. */
  title: string | null;
  messages: ChatEntry[];
  /** What the student is typing. */
  draft: string;
  /** The text of a message whose send failed completely; Retry sends it again. */
  failed: string | null;
  /** A reply that arrived whole, revealed a few characters at a time. */
  reveal: string | null;
  /** Context for the tutor sent with every message. */
  dashboardData: Record<string, unknown>;
  /** Ids for messages made here, before the server knows them. */
  nextId: number;
};

export type ChatEvent =
  | { type: 'draft.change'; text: string }
  | { type: 'message.send' }
  | { type: 'message.stop' }
  | { type: 'message.retry' }
  | { type: 'session.new' }
  | { type: 'session.open'; sessionId: string }
  | { type: 'dashboard.change'; dashboardData: Record<string, unknown> }
  | { type: 'stream.chunk'; text: string }
  | { type: 'stream.status'; text: string };

/** What the chat asks of the page around it: toasts, the URL, the chat list, announcements. */
export type ChatEmitted =
  | Notice
  /** The `sessionId` URL parameter should now be this, or be removed (null). */
  | { type: 'session.changed'; sessionId: string | null }
  /** A session got its first reply: chat lists reload (the 'refresh-chat-history' window event). */
  | { type: 'history.refresh'; sessionId: string }
  /** A reply is complete: its text is announced to screen readers. */
  | { type: 'reply.completed'; content: string };

export type SendStreamInput = {
  body: ChatSendRequest;
  /** Receives each chunk of text as it arrives. */
  onChunk: (text: string) => void;
  /** Receives what the tutor is doing meanwhile ('Checking the maths…'). */
  onStatus: (text: string) => void;
};

// The saved chats of the sidebar (sessions.machine.ts).

export type SessionsContext = {
  /** Active sessions, newest activity first; empty when the list failed to load. */
  sessions: ChatSession[];
  /** The session being renamed or deleted. */
  target: ChatSession | null;
};

export type SessionsEvent =
  | { type: 'sessions.refresh' }
  | { type: 'session.rename'; sessionId: string }
  | { type: 'rename.save'; title: string }
  | { type: 'rename.cancel' }
  | { type: 'session.archive'; sessionId: string }
  /** Undo of an archive (its toast's button). */
  | { type: 'session.unarchive'; sessionId: string }
  | { type: 'session.delete'; sessionId: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' };

export type SessionsEmitted =
  /** `undo`: the session whose archive the toast may undo. */
  | (Notice & { undo?: string })
  /** A session left the list (archived or deleted): a chat showing it should start over. */
  | { type: 'session.removed'; sessionId: string };

// Their search (search.machine.ts).

export type SearchContext = {
  /** What the student typed. */
  query: string;
  /** Matches of the last search, at most 20, archived ones marked. */
  results: ChatSearchHit[];
  /** Up to 10 recent chats, shown while the query is blank. */
  recent: ChatSessionPage['sessions'];
  /** Archived matches being brought back. */
  unarchiving: string[];
};

export type SearchEvent =
  | { type: 'search.change'; query: string }
  | { type: 'search.clear' }
  /** Unarchive from a result. */
  | { type: 'result.unarchive'; sessionId: string }
  | { type: 'result.unarchived'; sessionId: string }
  | { type: 'result.unarchiveFailed'; sessionId: string };

export type SearchEmitted =
  | Notice
  /** A chat left the archive: the chat list should reload. */
  | { type: 'session.unarchived'; sessionId: string };
