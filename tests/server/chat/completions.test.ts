/**
 * The tutor's wire client (server/llm/completions.ts) against an endpoint that drops a kept-alive
 * connection: the second request on any connection is reset unread, as an endpoint whose keep-alive
 * timeout closed the idle socket just as the next request went out on it. The request goes once more
 * on a new connection; a reset on a fresh connection is a failure.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { streamCompletion } from '../../../server/llm/completions';

let server: Server;
let url = '';
/** Set: every request is reset, on whatever connection. */
let resetAll = false;
const served = new WeakMap<object, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const count = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, count);
    if (resetAll || count > 1) {
      req.socket.resetAndDestroy();
      return;
    }
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'Hi' } }] })}\n\n`);
      res.write(`data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function text() {
  let out = '';
  const request = { model: 'm', messages: [{ role: 'user' as const, content: 'Hello' }] };
  for await (const part of streamCompletion(url, null, request, new AbortController().signal))
    if (part.type === 'text') out += part.text;
  return out;
}

describe('the wire client on a dropped kept-alive connection', () => {
  it('sends the request again on a new connection, once', async () => {
    expect(await text()).toBe('Hi');
    // The same kept-alive connection is reused, and reset: the answer still comes.
    expect(await text()).toBe('Hi');
    expect(await text()).toBe('Hi');
  });

  it('fails when a new connection is reset too', async () => {
    resetAll = true;
    await expect(text()).rejects.toThrow();
  });
});
