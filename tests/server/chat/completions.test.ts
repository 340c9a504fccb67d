/**
 * The tutor's wire client (server/llm/completions.ts) against an endpoint that drops a kept-alive
 * connection: the second request on any connection is reset unread, as an endpoint whose keep-alive
 * timeout closed the idle socket just as the next request went out on it. The request goes again,
 * on the next kept connection or a new one; a reset on a new connection is a failure.
 */
import diagnostics from 'node:diagnostics_channel';
import { type ClientRequest, createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { streamCompletion } from '../../../server/llm/completions';

/** A whole completion streamed: "Hi", then the end. */
function sayHi(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'Hi' } }] })}\n\n`);
  res.write(`data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] })}\n\n`);
  res.end('data: [DONE]\n\n');
}

/** Starts `server` on a free port; answers its base URL (`…/v1`). */
async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function closing(server: Server) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

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
    req.on('end', () => sayHi(res));
  });
  server.keepAliveTimeout = 60_000;
  url = await listening(server);
});
afterAll(() => closing(server));

/** The text of one completion from `base` (the resetting endpoint's by default). */
async function text(base = url) {
  let out = '';
  const request = { model: 'm', messages: [{ role: 'user' as const, content: 'Hello' }] };
  for await (const part of streamCompletion(base, null, request, new AbortController().signal))
    if (part.type === 'text') out += part.text;
  return out;
}

describe('the wire client on a dropped kept-alive connection', () => {
  it('sends the request again when its kept connection is reset', async () => {
    expect(await text()).toBe('Hi');
    // The same kept-alive connection is reused, and reset: the answer still comes.
    expect(await text()).toBe('Hi');
    expect(await text()).toBe('Hi');
  });

  it('goes on past every kept connection the endpoint closed, to a new one', async () => {
    // Two connections kept, each answered once: the endpoint resets both at the next request.
    expect(await Promise.all([text(), text()])).toEqual(['Hi', 'Hi']);
    expect(await text()).toBe('Hi');
  });

  it('fails when a new connection is reset too', async () => {
    resetAll = true;
    await expect(text()).rejects.toThrow();
  });
});

/**
 * The reply as it arrives off the socket (`arriving`): in pieces that cut a line or a character in
 * two, faster than it is read, or cut off before its end.
 */
describe('the wire client reading a reply', () => {
  let raw: Server;
  let rawUrl = '';
  /** What the next request is answered with, written piece by piece. */
  let answer: (res: ServerResponse) => Promise<void> = async () => {};

  beforeAll(async () => {
    raw = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        void answer(res);
      });
    });
    rawUrl = await listening(raw);
  });
  afterAll(() => closing(raw));

  const event = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ choices: [{ delta, finish_reason: finish }] })}\n\n`;
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const tick = () => sleep(5);

  /** The text read, and how many text parts it came in; slow: a pause after the first part. */
  async function read(slow = false) {
    let text = '';
    let parts = 0;
    const request = { model: 'm', messages: [{ role: 'user' as const, content: 'Hello' }] };
    const signal = new AbortController().signal;
    for await (const part of streamCompletion(rawUrl, null, request, signal)) {
      if (part.type !== 'text') continue;
      text += part.text;
      parts++;
      if (slow && parts === 1) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { text, parts };
  }

  it('joins a line, and a character, cut across writes', async () => {
    const body = event({ content: 'Ⅻ ½ é' }) + event({}, 'stop') + 'data: [DONE]\n\n';
    const bytes = Buffer.from(body);
    // Two bytes at a time: every line cut, and each of those characters' bytes split.
    answer = async (res) => {
      for (let i = 0; i < bytes.length; i += 2) {
        res.write(bytes.subarray(i, i + 2));
        if (i % 16 === 0) await tick();
      }
      res.end();
    };
    expect(await read()).toEqual({ text: 'Ⅻ ½ é', parts: 1 });
  });

  it('keeps every part, in order, of a reply written faster than it is read', async () => {
    // Far more than a socket's buffers hold while the reader is away.
    const words = Array.from({ length: 4000 }, (_, i) => ` w${i}`);
    answer = async (res) => {
      for (const word of words) res.write(event({ content: word }));
      res.end(event({}, 'stop') + 'data: [DONE]\n\n');
    };
    expect(await read(true)).toEqual({ text: words.join(''), parts: words.length });
  });

  it('reads no more of the socket while its reader is away, then all of it in order', async () => {
    // 200 events 5 ms apart, 36 kB: Node's client would read on into a paused response until it
    // held 16 kB.
    const words = Array.from({ length: 200 }, (_, i) => ` w${i}${'.'.repeat(160)}`);
    answer = async (res) => {
      for (const word of words) {
        res.write(event({ content: word }));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      res.end(event({}, 'stop') + 'data: [DONE]\n\n');
    };
    // The request's socket, as Node's diagnostics channel shows it (given once the request starts).
    let socket: Socket | null = null;
    const started = ({ request }: { request: ClientRequest }) => (socket = request.socket);
    diagnostics.subscribe('http.client.request.start', started as (message: unknown) => void);
    let text = '';
    const read: number[] = [];
    try {
      const request = { model: 'm', messages: [{ role: 'user' as const, content: 'Hello' }] };
      const signal = new AbortController().signal;
      for await (const part of streamCompletion(rawUrl, null, request, signal)) {
        if (part.type !== 'text') continue;
        text += part.text;
        if (text !== words[0]) continue;
        // Away 600 ms after the first words: what the socket read 100 ms in, and 500 ms in.
        await sleep(100);
        read.push(socket!.bytesRead);
        await sleep(400);
        read.push(socket!.bytesRead);
        await sleep(100);
      }
    } finally {
      diagnostics.unsubscribe('http.client.request.start', started as (message: unknown) => void);
    }
    // The endpoint wrote on meanwhile (about 13 kB), and none of it was read.
    expect(read[1]).toBe(read[0]);
    expect(text).toBe(words.join(''));
  });

  /** The text of a reply read while it gives way for `ms` each time it is asked. */
  async function readGivingWay(ms: number) {
    let text = '';
    let asked = 0;
    const request = { model: 'm', messages: [{ role: 'user' as const, content: 'Hello' }] };
    const giveWay = () => {
      asked++;
      return sleep(ms);
    };
    const signal = new AbortController().signal;
    for await (const part of streamCompletion(rawUrl, null, request, signal, giveWay))
      if (part.type === 'text') text += part.text;
    return { text, asked };
  }

  it('reads all of a reply, in order, that gives way each time it could read on', async () => {
    const words = Array.from({ length: 60 }, (_, i) => ` w${i}`);
    answer = async (res) => {
      for (const word of words) {
        res.write(event({ content: word }));
        await tick();
      }
      res.end(event({}, 'stop') + 'data: [DONE]\n\n');
    };
    const { text, asked } = await readGivingWay(30);
    expect(text).toBe(words.join(''));
    // Each wait brought what the model sent during it: 300 ms of it in about ten waits, not sixty.
    expect(asked).toBeGreaterThan(2);
    expect(asked).toBeLessThan(30);
  });

  it('ends a reply that gave way with all of it read, and one that did with none of it', async () => {
    // Everything at once: the reader has it all when it first gives way; the end is yet to come.
    answer = async (res) => {
      res.end(event({ content: 'All' }) + event({}, 'stop') + 'data: [DONE]\n\n');
    };
    expect((await readGivingWay(50)).text).toBe('All');
    // Nothing yet when it gives way, nor when its wait ends: the head first, the reply after.
    answer = async (res) => {
      res.flushHeaders();
      await sleep(150);
      res.end(event({ content: 'Late' }) + event({}, 'stop') + 'data: [DONE]\n\n');
    };
    expect((await readGivingWay(50)).text).toBe('Late');
  }, 5_000);

  it('fails when the connection closes before the reply ended', async () => {
    answer = async (res) => {
      res.write(event({ content: 'Half' }));
      await tick();
      res.socket?.destroy();
    };
    await expect(read()).rejects.toThrow();
  });
});

/**
 * The connections to the model between a class's questions: every one a burst opened is there for
 * the next burst, minutes later, when the endpoint keeps them (Node's global agent closed an idle
 * one after 5 s, and kept at most 256).
 */
describe('the wire client between bursts', () => {
  let kept: Server;
  let keptUrl = '';
  let opened = 0;

  beforeAll(async () => {
    kept = createServer((req, res) => {
      req.resume();
      req.on('end', () => sayHi(res));
    });
    kept.on('connection', () => opened++);
    // As a hosted endpoint behind a CDN keeps an idle connection (Cloudflare: 400 s).
    kept.keepAliveTimeout = 400_000;
    keptUrl = await listening(kept);
  });
  afterAll(() => closing(kept));

  const burst = (n: number) => Promise.all(Array.from({ length: n }, () => text(keptUrl)));

  it('keeps every connection of a 300-reply burst for the next one after a pause', async () => {
    expect(new Set(await burst(300))).toEqual(new Set(['Hi']));
    const first = opened;
    expect(first).toBe(300);
    // Longer than Node's global agent keeps an idle connection.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    expect(new Set(await burst(300))).toEqual(new Set(['Hi']));
    expect(opened).toBe(first);
  }, 30_000);
});
