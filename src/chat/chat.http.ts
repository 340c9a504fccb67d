import { archiveHttp } from '../archive.http';
import type { HttpClient } from '../http-client';
import { networkError } from '../lib/http-errors';
import { CHAT } from '../lib/limits';
import type { ChatAdapter, ChatSendResponse, ChatStreamEvent } from './chat.adapter';

const CHAT_PATH = '/api/v1/chat';
const id = encodeURIComponent;

/** The chat adapter over HTTP. */
export function chatHttp(client: HttpClient): ChatAdapter {
  return {
    ...archiveHttp(client),
    send: (body, { signal } = {}) =>
      client.request(`${CHAT_PATH}/send`, { method: 'POST', body, signal }),

    async *sendStream(body, { signal } = {}): AsyncGenerator<ChatStreamEvent, void, undefined> {
      const events = client.stream(`${CHAT_PATH}/send/stream`, { body, signal });
      for await (const { event, data } of events) {
        if (event === 'chunk') yield { type: 'chunk', text: String(data) };
        if (event === 'status') yield { type: 'status', text: String(data) };
        if (event === 'done') {
          yield { ...(data as ChatSendResponse), type: 'done' };
          return;
        }
      }
      throw networkError(undefined, 'The stream ended before its done event.');
    },

    listSessions: ({ limit, page } = {}, { signal } = {}) =>
      client.request(`${CHAT_PATH}/sessions`, { query: { limit, page }, signal }),
    getSession: (sessionId, { signal } = {}) =>
      client.request(`${CHAT_PATH}/sessions/${id(sessionId)}`, { signal }),
    renameSession: (sessionId, body, { signal } = {}) =>
      client.request(`${CHAT_PATH}/sessions/${id(sessionId)}/title`, {
        method: 'PATCH',
        body,
        signal,
      }),
    deleteSession: (sessionId, { signal } = {}) =>
      client.request(`${CHAT_PATH}/sessions/${id(sessionId)}`, { method: 'DELETE', signal }),
    search: ({ search, limit = CHAT.searchLimit, page = 1 }, { signal } = {}) =>
      client.request(`${CHAT_PATH}/search`, { query: { search, limit, page }, signal }),
    archiveSession: (sessionId, { signal } = {}) =>
      client.request(`${CHAT_PATH}/sessions/${id(sessionId)}/archive`, { method: 'PATCH', signal }),
  };
}
