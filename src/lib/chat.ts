import { CHAT } from './limits';
import { VALIDATION_MESSAGES as M } from './messages';

/** What is actually sent: the message without surrounding whitespace. */
export function prepareMessage(text: string): string {
  return text.trim();
}

/**
 * Whether `text` is past the 4000-character limit. Length is `text.length`, UTF-16 code units,
 * because that is what a textarea's `maxLength` and the server's JavaScript count: an emoji
 * outside the Basic Multilingual Plane costs two. The raw input is measured, not the trimmed
 * one, since the limit refuses typing and typing includes spaces.
 */
export function exceedsMessageLimit(text: string): boolean {
  return text.length > CHAT.maxMessageLength;
}

/**
 * Why `text` cannot be sent, or null: 'Message can be up to 4000 characters only.' when too long,
 * 'Message cannot be empty' when blank after trimming (the spec only disables Send for that).
 */
export function messageError(text: string): string | null {
  if (exceedsMessageLimit(text)) return M.messageTooLong;
  if (prepareMessage(text) === '') return M.messageEmpty;
  return null;
}

/** Send is enabled only when no reply is awaited and the message is sendable. */
export function canSend({ text, waiting }: { text: string; waiting: boolean }): boolean {
  return !waiting && messageError(text) === null;
}

/** The prefix of client-generated session ids. */
export const CLIENT_SESSION_PREFIX = 'session_';

const CLIENT_SESSION_ID = /^session_\d+_[0-9a-z]{9}$/;

/**
 * A client-side session id: the prefix, the time and 9 random base-36 characters, e.g.
 * `session_1732234567890_k3j9x8a2b`. Both sources are parameters so tests can fix them.
 */
export function newClientSessionId(
  now: number = Date.now(),
  random: () => number = Math.random,
): string {
  let suffix = '';
  for (let i = 0; i < 9; i++) {
    // Clamped because a custom `random` might return exactly 1.
    suffix += Math.min(35, Math.max(0, Math.floor(random() * 36))).toString(36);
  }
  return `${CLIENT_SESSION_PREFIX}${Math.floor(now)}_${suffix}`;
}

/** Whether `id` was made by {@link newClientSessionId} (and so is unknown to the server). */
export function isClientSessionId(id: string): boolean {
  return CLIENT_SESSION_ID.test(id);
}

/** The title of a session with no usable first message. */
export const DEFAULT_SESSION_TITLE = 'New Chat';

const ELLIPSIS = '…';
const TRAILING_PUNCTUATION = new Set([' ', ',', ';', ':', '.', '-', '–', '—']);

/**
 * A session title from its first user message: whitespace collapsed, at most 60 characters
 * (UTF-16 units, like the message limit). A longer message is cut at the last word boundary
 * and ends with '…', which counts toward the 60; a single long word, or a boundary in the first
 * half, is cut mid-word instead so the title keeps enough text.
 */
export function sessionTitle(firstMessage: string): string {
  const text = firstMessage.replace(/\s+/g, ' ').trim();
  if (text === '') return DEFAULT_SESSION_TITLE;
  if (text.length <= CHAT.titleMaxLength) return text;

  const room = CHAT.titleMaxLength - ELLIPSIS.length;
  let end = room;
  // Never split a surrogate pair.
  if (isHighSurrogate(text.charCodeAt(end - 1))) end--;
  if (text[end] !== ' ') {
    const space = text.lastIndexOf(' ', end);
    if (space >= Math.floor(room / 2)) end = space;
  }
  while (end > 0 && TRAILING_PUNCTUATION.has(text[end - 1]!)) end--;
  return text.slice(0, end) + ELLIPSIS;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * `text` cut to the message limit (its first 4000 UTF-16 units), never splitting an emoji's surrogate
 * pair: what a paste past the limit keeps.
 */
export function clampMessage(text: string): string {
  if (!exceedsMessageLimit(text)) return text;
  const cut = text.slice(0, CHAT.maxMessageLength);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
