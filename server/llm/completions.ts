/**
 * One streamed chat completion over the OpenAI wire protocol, read straight off a `node:http`
 * response: `data:` lines parsed once each (JSON.parse), text deltas yielded as they come, tool-call
 * fragments gathered into whole calls. This is the tutor's hot path: the AI SDK's `streamText` put
 * every chunk through a zod check and half a dozen web-stream hops (bench:class's profile: with the
 * SDK's transforms a third of the app's CPU a stream went to reading the model, issue 26), so the
 * reply stream reads the wire itself. Failures are the SDK's kinds, so callers classify them alike:
 * a refused request is an `APICallError` (status and body), anything else a plain Error.
 */
import http from 'node:http';
import https from 'node:https';

import { APICallError } from 'ai';

/** A message as the wire carries it. */
export interface WireMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
}

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface WireTool {
  type: 'function';
  function: { name: string; description?: string; parameters: unknown };
}

export interface CompletionRequest {
  model: string;
  messages: WireMessage[];
  tools?: WireTool[];
  tool_choice?: 'auto' | 'none';
}

/** What a completion streams: text, the start of a tool call, then its end (with the calls). */
export type CompletionPart =
  | { type: 'text'; text: string }
  | { type: 'tool-start'; name: string }
  | { type: 'finish'; reason: string | null; toolCalls: WireToolCall[] };

interface ChunkDelta {
  content?: string | null;
  tool_calls?: {
    index?: number;
    id?: string;
    function?: { name?: string; arguments?: string };
  }[];
}

interface Chunk {
  choices?: { delta?: ChunkDelta; finish_reason?: string | null }[];
  error?: { message?: string };
}

/**
 * How a reply gives way to others (a class's first words, server/http/stream-gate.ts): asked each
 * time the reply has taken all it read and would read on, it answers a promise to wait for first
 * (or null: read on now).
 */
export type GiveWay = () => Promise<void> | null;

/** Reads a whole (error) response body as text, at most 64 kB of it. */
async function bodyText(response: http.IncomingMessage): Promise<string> {
  let text = '';
  response.setEncoding('utf8');
  for await (const piece of response) {
    if (text.length < 65_536) text += piece as string;
  }
  return text;
}

/**
 * The response's text as it arrives, everything that arrived since the last `next()` in one piece
 * (issue 26). A Readable's own async iterator gives each socket read as its own piece, each through
 * its stream's machinery and a promise: under a class's burst this thread reads a stream's chunks
 * late, several at a time, and they now cost one piece, one promise and one pass of the lines.
 * Reads no further than asked: while the reader is away, or gives way to other replies (`giveWay`),
 * the response is paused, and the socket with it (the agents' `highWaterMark`); what the model
 * sends meanwhile waits in the socket and comes in one read once the reader is back.
 * Ends with the response; throws what broke it (an error, or a close before its end).
 */
async function* arriving(
  response: http.IncomingMessage,
  giveWay: GiveWay | undefined,
): AsyncGenerator<string, void, undefined> {
  let held = '';
  let ended = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  // Woken and not yet back for `held`: text arriving meanwhile joins it.
  let coming = false;
  // False from the end of a wait until the event loop has polled the socket again.
  let mayGiveWay = true;
  const woken = () => {
    if (!wake) return;
    wake();
    wake = null;
    coming = true;
  };
  const onData = (piece: string) => {
    held += piece;
    if (wake) woken();
    else if (!coming) response.pause();
  };
  const onEnd = () => {
    ended = true;
    woken();
  };
  const onError = (error: Error) => {
    failure ??= error;
    woken();
  };
  const onClose = () => {
    if (!ended) failure ??= new Error('the model closed the connection before the reply ended');
    woken();
  };
  response.setEncoding('utf8');
  response.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  try {
    for (;;) {
      coming = false;
      // What arrived as the reader left waits in the paused response, to come a piece a turn
      // once it flows: all of it now (`read` hands it to `onData`).
      if (response.isPaused() && response.readableLength > 0) response.read();
      if (held !== '') {
        const piece = held;
        held = '';
        yield piece;
        continue;
      }
      if (failure) throw failure;
      if (ended) return;
      // Caught up with what was read. Waiting its turn, the reply reads nothing: what the model
      // sends meanwhile waits in the socket. After a wait it may not wait again until the event
      // loop has polled the socket: what waited comes in that read (a reply held again at once
      // took a piece a wait, the one its streams held when paused).
      const turn = mayGiveWay ? giveWay?.() : null;
      if (turn) {
        response.pause();
        await turn;
        mayGiveWay = false;
        setImmediate(() => (mayGiveWay = true));
        continue;
      }
      if (response.isPaused()) response.resume();
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    response.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
  }
}

/**
 * How long a connection to the model may sit idle and still take the next reply. Hosted endpoints keep
 * a client's idle connection for minutes (Cloudflare, in front of OpenAI's API, 400 s; Google's load
 * balancers 610 s; nginx 75 s); Node's global agent closed ours after 5 s and kept at most 256 idle,
 * so a class asking again after a pause opened a connection a reply (and over TLS, a handshake each):
 * bench:class at 300 at once, the connects were a tenth of the app's CPU until the first words. A
 * shorter time the endpoint announces (`Keep-Alive: timeout=…`) wins (Node's agent reads it).
 */
const MODEL_KEEP_ALIVE_MS = 5 * 60_000;

/**
 * The connections to the model, kept for the next reply: every idle one a burst leaves (each closed
 * after `MODEL_KEEP_ALIVE_MS` unused; Node's agent takes the most recently used first, so those a
 * quieter spell does not need are the ones that time out). The timeout only closes an idle one: a
 * reply whose model is silent a while is not cut (Node's agent destroys a socket that times out in
 * its free list, and nothing else).
 */
const keptAlive = {
  keepAlive: true,
  timeout: MODEL_KEEP_ALIVE_MS,
  maxFreeSockets: Infinity,
  // A paused response stops its socket at once: Node's client reads on into a paused response
  // until it holds the socket's high-water mark (16 kB, a whole reply), a read a chunk. (A TLS
  // socket takes `highWaterMark` only, not `readableHighWaterMark`: checked by hand with https.)
  highWaterMark: 1,
};
const agents = { http: new http.Agent(keptAlive), https: new https.Agent(keptAlive) };

/**
 * Sends the request; resolves with the response once its head has arrived. A kept-alive connection
 * the endpoint closed while it sat idle (its keep-alive timeout, or this process too busy to hear the
 * close in time) fails before anything was read: then, and only then, the request goes again, on the
 * next kept connection or a new one (Node's documented remedy, `request.reusedSocket`). Each failure
 * uses one kept connection up (a burst's may have been closed together), and a new connection is
 * never retried: a reset on it is the request's failure.
 */
function post(
  url: URL,
  body: string,
  apiKey: string | null,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  const headers: http.OutgoingHttpHeaders = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'content-length': Buffer.byteLength(body),
  };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const secure = url.protocol === 'https:';
  const send = secure ? https.request : http.request;
  const agent = secure ? agents.https : agents.http;
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = send(url, { method: 'POST', headers, signal, agent }, (response) => {
      answered = true;
      resolve(response);
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      // Once answered, a failure is the response's to report (the reader sees it).
      if (answered) return;
      const stale = request.reusedSocket && error.code === 'ECONNRESET' && !signal.aborted;
      if (stale) resolve(post(url, body, apiKey, signal));
      else reject(error);
    });
    request.end(body);
  });
}

/**
 * Streams one completion of `request` from `baseUrl` (`…/v1`). Leaving the loop early, or `signal`,
 * ends the request. Rejects with an `APICallError` when the endpoint answers other than 200, and with
 * an Error when the stream breaks, carries an error, or ends before the model finished.
 */
export async function* streamCompletion(
  baseUrl: string,
  apiKey: string | null,
  request: CompletionRequest,
  signal: AbortSignal,
  giveWay?: GiveWay,
): AsyncGenerator<CompletionPart, void, undefined> {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/chat/completions`);
  const payload = { ...request, stream: true };
  const response = await post(url, JSON.stringify(payload), apiKey, signal);
  try {
    if (response.statusCode !== 200) {
      const responseBody = await bodyText(response);
      throw new APICallError({
        message: `${response.statusCode} ${response.statusMessage ?? ''}: ${responseBody.slice(0, 500)}`,
        url: url.toString(),
        requestBodyValues: payload,
        statusCode: response.statusCode,
        responseBody,
      });
    }
    const calls: WireToolCall[] = [];
    let finishReason: string | null = null;
    let finished = false;
    let buffer = '';
    for await (const piece of arriving(response, giveWay)) {
      buffer += piece;
      let end: number;
      while ((end = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, end).trimEnd();
        buffer = buffer.slice(end + 1);
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') {
          finished = true;
          continue;
        }
        let chunk: Chunk;
        try {
          chunk = JSON.parse(data) as Chunk;
        } catch {
          throw new Error(`the model sent a chunk that is not JSON: ${data.slice(0, 200)}`);
        }
        if (chunk.error) throw new Error(`the model failed: ${chunk.error.message ?? 'error'}`);
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = choice.delta;
        if (delta?.content) yield { type: 'text', text: delta.content };
        for (const fragment of delta?.tool_calls ?? []) {
          const index = fragment.index ?? calls.length;
          let call = calls[index];
          if (!call) {
            call = {
              id: fragment.id ?? `call_${index}`,
              type: 'function',
              function: { name: fragment.function?.name ?? '', arguments: '' },
            };
            calls[index] = call;
            yield { type: 'tool-start', name: call.function.name };
          } else if (fragment.function?.name) call.function.name += fragment.function.name;
          if (fragment.function?.arguments) call.function.arguments += fragment.function.arguments;
        }
        if (choice.finish_reason) {
          finishReason = choice.finish_reason;
          finished = true;
        }
      }
    }
    if (!finished) throw new Error('the model stream ended before the reply was finished');
    yield { type: 'finish', reason: finishReason, toolCalls: calls.filter(Boolean) };
  } finally {
    // Left early (or failed): the request is ended, not read to its end.
    if (!response.complete) response.destroy();
  }
}
