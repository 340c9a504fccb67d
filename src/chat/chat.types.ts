import type { Notice } from '../lib/notices';
import type { ChatSendRequest } from './chat.adapter';
import type { ChatEntry } from './chat.thread';

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
