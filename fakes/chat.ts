/**
 * A fake chat adapter for machine tests, component tests and stories: every call resolves with sample
 * data unless overridden, and helpers make calls that reject, never settle, or settle on command.
 * No test framework is imported, so stories and tests share it.
 */
import type {
  CallOptions,
  ChatAdapter,
  ChatMessage,
  ChatSendRequest,
  ChatSendResponse,
  ChatSession,
  ChatSessionDetail,
  ChatStreamEvent,
  Paged,
} from '../src/api';
import { ApiError } from '../src/lib/http-errors';
import { abortError, apiError, pending } from './calls';

export { apiError, deferred, pending } from './calls';

export const sampleReply =
  'A **fraction** has a numerator and a denominator. For example $\\frac{1}{2}$ is one half.';

export const sampleAnswer: ChatSendResponse = {
  response: sampleReply,
  sessionId: 'session-new',
  threadId: 'thread-new',
};

export const sampleSessions: ChatSession[] = [
  session('s1', 'Fractions homework', '2025-03-14T09:00:00Z', 4),
  session('s2', 'Photosynthesis quiz prep', '2025-03-13T16:30:00Z', 6),
  session('s3', 'The French Revolution', '2025-03-12T11:15:00Z', 2),
  session('s4', 'Essay outline: Macbeth', '2025-03-10T18:45:00Z', 8),
];

export function session(
  id: string,
  title: string,
  lastMessageAt = '2025-03-14T09:00:00Z',
  messageCount = 2,
): ChatSession {
  return { id, title, createdAt: lastMessageAt, lastMessageAt, messageCount };
}

export function page<S extends ChatSession>(sessions: S[]): Paged<'sessions', S> {
  return { sessions, total: sessions.length, page: 1, limit: 20, hasMore: false };
}

export const sampleMessages: ChatMessage[] = [
  {
    id: 'm1',
    role: 'user',
    content: 'How do I add 1/2 and 1/3?',
    createdAt: '2025-03-14T09:00:00Z',
  },
  {
    id: 'm2',
    role: 'assistant',
    content:
      'Find a common denominator first: $\\frac{1}{2} = \\frac{3}{6}$ and $\\frac{1}{3} = \\frac{2}{6}$, so the sum is $\\frac{5}{6}$.',
    createdAt: '2025-03-14T09:00:05Z',
  },
];

export function sessionDetail(
  id: string,
  messages: ChatMessage[] = sampleMessages,
  title = sampleSessions.find((s) => s.id === id)?.title ?? 'Fractions homework',
): ChatSessionDetail {
  return { ...session(id, title, '2025-03-14T09:00:00Z', messages.length), messages };
}

/** A reply streamed as `chunks`, then `done`; with `delayMs`, one chunk every so often. */
export function streamOf(
  chunks: string[],
  done: ChatSendResponse = { ...sampleAnswer, response: chunks.join('') },
  { delayMs = 0 }: { delayMs?: number } = {},
) {
  return async function* (
    _body: ChatSendRequest,
    options?: CallOptions,
  ): AsyncGenerator<ChatStreamEvent> {
    for (const text of chunks) {
      if (delayMs) await sleep(delayMs, options?.signal);
      yield { type: 'chunk', text };
    }
    yield { type: 'done', ...done };
  };
}

/** A stream that yields `chunks` and then fails with `error` (or never ends, with `error` null). */
export function brokenStream(chunks: string[], error: unknown = apiError()) {
  return async function* (
    _body: ChatSendRequest,
    options?: CallOptions,
  ): AsyncGenerator<ChatStreamEvent> {
    for (const text of chunks) yield { type: 'chunk', text };
    if (error === null) await pending(options);
    throw error;
  };
}

/** A reply that says what the tutor is doing (`status`) after `chunks`, and then waits. */
export function checkingStream(status: string, chunks: string[] = []) {
  return async function* (
    _body: ChatSendRequest,
    options?: CallOptions,
  ): AsyncGenerator<ChatStreamEvent> {
    for (const text of chunks) yield { type: 'chunk', text };
    yield { type: 'status', text: status };
    await pending(options);
  };
}

/** A stream driven step by step: `push` a chunk, then `finish` or `fail`. */
export function controlledStream() {
  type Step = { event: ChatStreamEvent } | { error: unknown };
  const queue: Step[] = [];
  let wake: (() => void) | undefined;
  const requests: ChatSendRequest[] = [];
  const signals: AbortSignal[] = [];

  function add(step: Step) {
    queue.push(step);
    wake?.();
  }

  async function* stream(
    body: ChatSendRequest,
    options?: CallOptions,
  ): AsyncGenerator<ChatStreamEvent> {
    requests.push(body);
    if (options?.signal) signals.push(options.signal);
    for (;;) {
      while (queue.length === 0) {
        await new Promise<void>((resolve, reject) => {
          wake = resolve;
          options?.signal?.addEventListener('abort', () => reject(abortError()), { once: true });
        });
      }
      const step = queue.shift()!;
      if ('error' in step) throw step.error;
      yield step.event;
      if (step.event.type === 'done') return;
    }
  }

  return {
    stream,
    requests,
    signals,
    push: (text: string) => add({ event: { type: 'chunk', text } }),
    /** What the tutor is doing meanwhile, as the server's `status` event says it. */
    status: (text: string) => add({ event: { type: 'status', text } }),
    finish: (answer: Partial<ChatSendResponse> = {}) =>
      add({ event: { type: 'done', ...sampleAnswer, ...answer } }),
    fail: (error: unknown = apiError()) => add({ error }),
  };
}

function sleep(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(abortError());
      },
      { once: true },
    );
  });
}

/** The fake adapter: sample answers everywhere, each call replaceable through `overrides`. */
export function fakeChatAdapter(overrides: Partial<ChatAdapter> = {}): ChatAdapter {
  let sessions = [...sampleSessions];
  let archived: ChatSession[] = [];
  const find = (id: string) => sessions.find((s) => s.id === id);
  const notFound = () => new ApiError(404, 'Session not found');

  return {
    send: async () => sampleAnswer,
    sendStream: streamOf(sampleReply.match(/.{1,12}/gs) ?? [], sampleAnswer),
    listSessions: async ({ limit } = {}) => page(sessions.slice(0, limit ?? sessions.length)),
    getSession: async (id) => {
      if (!find(id)) throw notFound();
      return sessionDetail(id);
    },
    renameSession: async (id, { title }) => {
      const found = find(id);
      if (!found) throw notFound();
      const renamed = { ...found, title };
      sessions = sessions.map((s) => (s.id === id ? renamed : s));
      return renamed;
    },
    deleteSession: async (id) => {
      sessions = sessions.filter((s) => s.id !== id);
      return { message: 'Chat deleted' };
    },
    search: async ({ search, limit = 20 }) =>
      page(
        [
          ...sessions.map((s) => ({ ...s, archived: false })),
          ...archived.map((s) => ({ ...s, archived: true })),
        ]
          .filter((s) => s.title.toLowerCase().includes(search.toLowerCase()))
          .slice(0, limit),
      ),
    listArchived: async () => page(archived),
    archiveAll: async () => ({ message: 'All chats archived' }),
    deleteAll: async () => ({ message: 'All chats deleted' }),
    archiveSession: async (id) => {
      const found = find(id);
      if (!found) throw notFound();
      sessions = sessions.filter((s) => s.id !== id);
      archived = [found, ...archived];
      return found;
    },
    unarchiveSession: async (id) => {
      const found = archived.find((s) => s.id === id) ?? session(id, 'Unarchived chat');
      archived = archived.filter((s) => s.id !== id);
      sessions = [found, ...sessions.filter((s) => s.id !== id)];
      return found;
    },
    deleteArchivedSession: async () => ({ message: 'Chat deleted' }),
    ...overrides,
  };
}
