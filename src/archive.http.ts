import type { HttpClient } from './http-client';
import { CHAT } from './lib/limits';
import type { ArchiveAdapter } from './wire';

const CHAT_PATH = '/api/v1/chat';
const id = encodeURIComponent;

/**
 * The chat archive calls over HTTP, once: the chat adapter includes them, and `createHttpApi` hands
 * them to the settings adapter for Data Controls.
 */
export function archiveHttp(client: HttpClient): ArchiveAdapter {
  return {
    listArchived: ({ limit = CHAT.archivedPageSize, page = 1 } = {}, { signal } = {}) =>
      client.request(`${CHAT_PATH}/archives`, { query: { limit, page }, signal }),
    archiveAll: ({ signal } = {}) =>
      client.request(`${CHAT_PATH}/archives`, { method: 'PATCH', signal }),
    deleteAll: ({ signal } = {}) =>
      client.request(`${CHAT_PATH}/all`, { method: 'DELETE', signal }),
    unarchiveSession: (sessionId, { signal } = {}) =>
      client.request(`${CHAT_PATH}/sessions/${id(sessionId)}/unarchive`, {
        method: 'PATCH',
        signal,
      }),
    deleteArchivedSession: (sessionId, { signal } = {}) =>
      client.request(`${CHAT_PATH}/sessions/${id(sessionId)}/archive`, {
        method: 'DELETE',
        signal,
      }),
  };
}
