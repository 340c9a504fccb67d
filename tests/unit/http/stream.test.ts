import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import type { ChatStreamEvent } from '../../../src/api';
import { createHttpApi, type HttpApiOptions } from '../../../src/http';
import { ApiError } from '../../../src/lib/http-errors';
import { delay, json, startEventStream, startServer, type TestServer } from './server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
});

const request = { messages: [{ role: 'user' as const, content: 'Héllo' }], threadId: 't0' };

function chat(options: Partial<HttpApiOptions> = {}) {
  return createHttpApi({ baseURL: server.url, getToken: () => 'tok-1', ...options }).chat;
}

async function collect(stream: AsyncIterable<ChatStreamEvent>) {
  const events: ChatStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the stream to fail');
    },
    (error: unknown) => error,
  );
}

const done = { response: 'Hé llo 😀 ∑', sessionId: 's1', threadId: 't1' };
const wire = Buffer.from(
  ': keep-alive\r\n\r\n' +
    'event: chunk\r\ndata: "Hé"\r\n\r\n' +
    'event: chunk\ndata: " llo 😀 ∑"\n\n' +
    `event: done\rdata: ${JSON.stringify(done)}\r\r`,
  'utf8',
);
const expected: ChatStreamEvent[] = [
  { type: 'chunk', text: 'Hé' },
  { type: 'chunk', text: ' llo 😀 ∑' },
  { type: 'done', ...done },
];

describe('chat.sendStream', () => {
  it('POSTs the conversation as JSON, asking for an event stream, with the bearer token', async () => {
    server.handle((_req, res) => {
      startEventStream(res);
      res.end(wire);
    });
    expect(await collect(chat().sendStream(request))).toEqual(expected);
    const [seen] = server.received;
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/api/v1/chat/send/stream');
    expect(seen?.headers.accept).toBe('text/event-stream');
    expect(seen?.headers.authorization).toBe('Bearer tok-1');
    expect(seen?.headers.cookie).toBeUndefined();
    expect(JSON.parse(seen?.body.toString('utf8') ?? '')).toEqual(request);
  });

  it('reads the same events wherever the bytes are split, even inside a character', async () => {
    // Every offset is a split in one of SPLITS answers: answer r is cut at r, r + SPLITS, r + 2 ×
    // SPLITS…, with a pause at each cut. (An answer per offset was ~130 round trips, which outlast
    // the test's 5 s on a busy runner; the loop then ran on and took the next test's handler.)
    const SPLITS = 10;
    const client = chat();
    for (let first = 1; first <= SPLITS; first++) {
      const cuts = [0];
      for (let at = first; at < wire.length; at += SPLITS) cuts.push(at);
      cuts.push(wire.length);
      server.handle(async (_req, res) => {
        startEventStream(res);
        for (let i = 1; i < cuts.length; i++) {
          res.write(wire.subarray(cuts[i - 1], cuts[i]));
          await delay(1);
        }
        res.end();
      });
      expect(await collect(client.sendStream(request)), `cut at ${cuts.join(', ')}`).toEqual(
        expected,
      );
    }
  });

  it("yields the tutor's status events between chunks, never as text of the reply", async () => {
    server.handle((_req, res) => {
      startEventStream(res);
      res.end(
        'event: status\ndata: "Checking the maths…"\n\n' +
          'event: chunk\ndata: "Yes"\n\n' +
          `event: done\ndata: ${JSON.stringify({ ...done, response: 'Yes' })}\n\n`,
      );
    });
    expect(await collect(chat().sendStream(request))).toEqual([
      { type: 'status', text: 'Checking the maths…' },
      { type: 'chunk', text: 'Yes' },
      { type: 'done', ...done, response: 'Yes' },
    ]);
  });

  it('reads the same events sent one byte at a time', async () => {
    server.handle(async (_req, res) => {
      startEventStream(res);
      for (const byte of wire) {
        res.write(Uint8Array.of(byte));
        await delay(0);
      }
      res.end();
    });
    expect(await collect(chat().sendStream(request))).toEqual(expected);
  });

  it('stops at done and closes the connection even if the server would go on', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    server.handle((_req, res) => {
      res.on('close', closed);
      startEventStream(res);
      res.write(`event: done\ndata: ${JSON.stringify(done)}\n\n`);
    });
    expect(await collect(chat().sendStream(request))).toEqual([{ type: 'done', ...done }]);
    await serverSawClose;
  });

  it('turns an error event into an ApiError carrying the detail', async () => {
    server.handle((_req, res) => {
      startEventStream(res);
      res.end('event: chunk\ndata: "Hal"\n\nevent: error\ndata: {"detail":"The model failed"}\n\n');
    });
    const seen: ChatStreamEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of chat().sendStream(request)) seen.push(event);
      })(),
    );
    expect(seen).toEqual([{ type: 'chunk', text: 'Hal' }]);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'The model failed', detail: 'The model failed' });
  });

  it('raises onTrialExpired for a TRIAL_EXPIRED error event', async () => {
    const onTrialExpired = vi.fn();
    server.handle((_req, res) => {
      startEventStream(res);
      res.end('event: error\ndata: {"detail":"TRIAL_EXPIRED"}\n\n');
    });
    await rejection(collect(chat({ onTrialExpired }).sendStream(request)));
    expect(onTrialExpired).toHaveBeenCalledTimes(1);
  });

  it('rejects when the stream ends without done', async () => {
    server.handle((_req, res) => {
      startEventStream(res);
      res.end('event: chunk\ndata: "partial"\n\n');
    });
    const error = await rejection(collect(chat().sendStream(request)));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0 });
  });

  it.each([
    [401, { detail: 'Expired' }, 'Authentication required. Please log in again.'],
    [403, { detail: 'Nope' }, 'Access forbidden. Insufficient permissions.'],
    [422, { detail: [{ loc: ['body', 'messages'], msg: 'Message too long' }] }, 'Message too long'],
    [429, { detail: 'Too many messages' }, 'Too many messages'],
    [500, 'Internal Server Error', 'Server error. Please try again later.'],
  ])('maps a %i answer through the catalogue', async (status, body, message) => {
    const onUnauthorized = vi.fn();
    server.handle((_req, res) => json(res, status, body));
    const error = await rejection(collect(chat({ onUnauthorized }).sendStream(request)));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status, message });
    expect(onUnauthorized).toHaveBeenCalledTimes(status === 401 ? 1 : 0);
  });

  it('maps a non-2xx answer that is itself an event stream', async () => {
    server.handle((_req, res) => {
      startEventStream(res, 404);
      res.end(JSON.stringify({ detail: 'Session not found' }));
    });
    const error = await rejection(collect(chat().sendStream(request)));
    expect(error).toMatchObject({ status: 404, message: 'Session not found' });
  });

  it('stops reading when aborted mid-stream, and the server sees the connection close', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    server.handle((_req, res) => {
      res.on('close', closed);
      startEventStream(res);
      res.write('event: chunk\ndata: "one"\n\n');
    });
    const controller = new AbortController();
    const stream = chat().sendStream(request, { signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'chunk', text: 'one' } });
    const next = iterator.next();
    controller.abort();
    const error = await rejection(next);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'AbortError' });
    await serverSawClose;
  });

  it('cancels the request when the consumer leaves the loop', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    server.handle((_req, res) => {
      res.on('close', closed);
      startEventStream(res);
      res.write('event: chunk\ndata: "one"\n\n');
    });
    for await (const event of chat().sendStream(request)) {
      expect(event).toEqual({ type: 'chunk', text: 'one' });
      break;
    }
    await serverSawClose;
  });

  it('lets an abort before the answer through as an AbortError', async () => {
    server.handle(async (_req, res) => {
      await delay(300);
      json(res, 200, {});
    });
    const controller = new AbortController();
    const pending = collect(chat().sendStream(request, { signal: controller.signal }));
    await delay(20);
    controller.abort();
    const error = await rejection(pending);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it('turns a stream cut off by the server into an ApiError of status 0', async () => {
    server.handle(async (_req, res) => {
      startEventStream(res);
      res.write('event: chunk\ndata: "one"\n\n');
      await delay(20);
      res.socket?.destroy();
    });
    const seen: ChatStreamEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of chat().sendStream(request)) seen.push(event);
      })(),
    );
    expect(seen).toEqual([{ type: 'chunk', text: 'one' }]);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 0,
      message: 'Network error. Please check your connection.',
    });
  });

  it('turns a refused connection into an ApiError of status 0', async () => {
    const gone = await startServer();
    const url = gone.url;
    await gone.close();
    const stream = createHttpApi({ baseURL: url, getToken: () => null }).chat.sendStream(request);
    const error = await rejection(collect(stream));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0 });
  });
});
