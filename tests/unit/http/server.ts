import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the server saw of one request. */
export type Received = {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
};

export type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  received: Received,
) => void | Promise<void>;

export type TestServer = {
  url: string;
  received: Received[];
  /** Replaces the handler for the next requests. */
  handle(handler: Handler): void;
  /**
   * Back to the handler it started with, and nothing received: each test starts from there, whatever
   * the one before it set (so the tests pass in any order).
   */
  reset(): void;
  close(): Promise<void>;
};

/** A real HTTP server on loopback; each request's body is read in full before the handler runs. */
export async function startServer(handler: Handler = (_req, res) => json(res, 200, {})) {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  let current = handler;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      received.push(entry);
      Promise.resolve(current(req, res, entry)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : undefined);
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const testServer: TestServer = {
    url: `http://127.0.0.1:${port}`,
    received,
    handle(next) {
      current = next;
    },
    reset() {
      current = handler;
      received.length = 0;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return testServer;
}

/** Answers with a JSON body (or the raw text when `body` is a string). */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
    ...headers,
  });
  res.end(text);
}

/** Starts a `text/event-stream` answer. */
export function startEventStream(res: ServerResponse, status = 200) {
  res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A user object of API.md, as a server sends it. */
export const wireUser = {
  id: 'u1',
  email: 'ada@example.org',
  display_name: 'Ada',
  profile: { display_name: 'Ada', bio: 'Hi', avatar_url: '/api/v1/auth/avatars/u1.png' },
  bio: 'Hi',
  interests: [],
  is_google: false,
  wallet_address: null,
  last_login: null,
  created_at: '2025-01-06T10:00:00.000Z',
  onboarding_completed: false,
  subscription_type: 'free',
  tier: 'free',
};
