/**
 * What the chat remembers in the browser, behind one small interface so that an embedded widget, a
 * story or a test can keep it elsewhere (`<Chat store>`, `chatLogic(adapter, store)`).
 */

/** The last conversation of a user, kept in local storage under their id (spec section 3). */
export type StoredChat = {
  currentSessionId: string;
  currentThreadId: string | null;
  messageCount: number;
  /** Milliseconds since the epoch. */
  timestamp: number;
};

/** Storage for the chat: the last conversation per user, and which sessions refreshed the history. */
export interface ChatStore {
  /** The last conversation of `userId`, or null. */
  load(userId: string): StoredChat | null;
  save(userId: string, chat: StoredChat): void;
  clear(userId: string): void;
  /** Whether the chat list was already refreshed for this session (in this browser tab). */
  wasHistoryRefreshed(sessionId: string): boolean;
  markHistoryRefreshed(sessionId: string): void;
}

type KeyValue = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const chatKey = (userId: string) => `ayah:chat:${userId}`;
const refreshedKey = (sessionId: string) => `ayah:chat:history-refreshed:${sessionId}`;

/** A store over two key-value storages: `local` for the conversation, `session` for the refreshes. */
export function keyValueChatStore(local: KeyValue, session: KeyValue): ChatStore {
  return {
    load(userId) {
      return parseStoredChat(safely(() => local.getItem(chatKey(userId))));
    },
    save(userId, chat) {
      safely(() => local.setItem(chatKey(userId), JSON.stringify(chat)));
    },
    clear(userId) {
      safely(() => local.removeItem(chatKey(userId)));
    },
    wasHistoryRefreshed(sessionId) {
      return safely(() => session.getItem(refreshedKey(sessionId))) === '1';
    },
    markHistoryRefreshed(sessionId) {
      safely(() => session.setItem(refreshedKey(sessionId), '1'));
    },
  };
}

/** A store that forgets everything when the page goes: for tests, stories and storage-less pages. */
export function memoryChatStore(): ChatStore {
  return keyValueChatStore(memoryStorage(), memoryStorage());
}

/**
 * The browser's local and session storage. A sandboxed iframe may refuse them (reading
 * `window.localStorage` throws), and then the chat remembers in memory instead.
 */
export function browserChatStore(): ChatStore {
  const local = safely(() => window.localStorage);
  const session = safely(() => window.sessionStorage);
  return keyValueChatStore(local ?? memoryStorage(), session ?? memoryStorage());
}

function memoryStorage(): KeyValue {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

// Storage can throw at any call (quota, privacy modes, sandboxing); the chat works on without it.
function safely<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

function parseStoredChat(raw: string | null): StoredChat | null {
  if (!raw) return null;
  const value: unknown = safely(() => JSON.parse(raw));
  if (typeof value !== 'object' || value === null) return null;
  const chat = value as Record<string, unknown>;
  if (typeof chat.currentSessionId !== 'string' || chat.currentSessionId === '') return null;
  return {
    currentSessionId: chat.currentSessionId,
    currentThreadId: typeof chat.currentThreadId === 'string' ? chat.currentThreadId : null,
    messageCount: typeof chat.messageCount === 'number' ? chat.messageCount : 0,
    timestamp: typeof chat.timestamp === 'number' ? chat.timestamp : 0,
  };
}
