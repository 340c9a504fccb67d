import type {
  ArchiveAdapter,
  CallOptions,
  ChatSession,
  ChatSessionPage,
  MessageResponse,
  Paged,
  PageQuery,
} from '../wire';

/** The session wire types, shared with settings' Data Controls through src/wire.ts. */
export type { ChatSession, ChatSessionPage } from '../wire';

/** Who wrote a message. */
export type ChatRole = 'user' | 'assistant';

/** A message as sent: the whole conversation goes with every send. */
export type ChatTurn = {
  role: ChatRole;
  content: string;
};

/** POST /send and /send/stream. The last message is the user's, 1–4000 characters after trimming. */
export type ChatSendRequest = {
  messages: ChatTurn[];
  sessionId?: string;
  threadId?: string;
  /** Context for the tutor (the points context's tokens); `{}` by default. */
  dashboardData?: Record<string, unknown>;
};

/** The whole reply, and the session and thread it was stored in. */
export type ChatSendResponse = {
  response: string;
  sessionId: string;
  threadId: string;
};

/**
 * One step of a streamed reply: text chunks in order, then one `done` with the whole reply. A
 * `status` says what the tutor is doing meanwhile ('Checking the maths…' while it checks its maths
 * with the server's tools); it is shown beside the reply and is never part of it.
 */
export type ChatStreamEvent =
  | { type: 'chunk'; text: string }
  | { type: 'status'; text: string }
  | ({ type: 'done' } & ChatSendResponse);

/** A stored message. */
export type ChatMessage = {
  id: string;
  role: ChatRole;
  content: string;
  createdAt: string;
};

/** GET /sessions/{id}: the session with its messages. */
export type ChatSessionDetail = ChatSession & {
  messages: ChatMessage[];
};

/** A search match: archived sessions are found too, marked so the student can unarchive them. */
export type ChatSearchHit = ChatSession & { archived: boolean };

/** GET /search's page of matches. */
export type ChatSearchPage = Paged<'sessions', ChatSearchHit>;

/** PATCH /sessions/{id}/title: 1–100 characters. */
export type RenameSessionRequest = {
  title: string;
};

/** GET /search: matches in titles and message text, case-insensitive. */
export type ChatSearchQuery = PageQuery & {
  search: string;
};

/** The tutor conversation and its saved sessions: `/api/v1/chat`. */
/** The chat calls; the archive calls (Settings' Data Controls use them too) come from ArchiveAdapter. */
export interface ChatAdapter extends ArchiveAdapter {
  /** Sends the conversation and answers with the whole reply. */
  send(body: ChatSendRequest, options?: CallOptions): Promise<ChatSendResponse>;
  /**
   * Sends the conversation and streams the reply: `chunk`s, then one `done`. An `error` event, a
   * failed answer or a stream that ends without `done` rejects with an ApiError; aborting the signal
   * (or leaving the loop) cancels the request.
   */
  sendStream(body: ChatSendRequest, options?: CallOptions): AsyncIterable<ChatStreamEvent>;
  /** Active sessions, newest activity first. */
  listSessions(query?: PageQuery, options?: CallOptions): Promise<ChatSessionPage>;
  /** One session with its messages; 404 when missing or someone else's. */
  getSession(id: string, options?: CallOptions): Promise<ChatSessionDetail>;
  /** Renames a session and answers with it. */
  renameSession(
    id: string,
    body: RenameSessionRequest,
    options?: CallOptions,
  ): Promise<ChatSession>;
  /** Deletes an active session. */
  deleteSession(id: string, options?: CallOptions): Promise<MessageResponse>;
  /** Searches sessions; `limit` 20 and `page` 1 unless given. */
  search(query: ChatSearchQuery, options?: CallOptions): Promise<ChatSearchPage>;
  /** Archives one session and answers with it. */
  archiveSession(id: string, options?: CallOptions): Promise<ChatSession>;
}
