/**
 * An opt-in trace of where a tutor send's time goes before the student reads the first words
 * (issue 26): with `AYAH_TRACE_SENDS=1` each `POST /chat/send/stream` records, in milliseconds since
 * its headers were read, when each phase ended, and the finished trace is logged (`[trace] send {…}`) and handed
 * to whoever listens (`onSendTrace`: bench:class reports the p50/p95 of each phase of a burst). Off by
 * default, and then nothing is recorded or logged: the middleware only calls on.
 *
 * The trace of the request in progress travels in an AsyncLocalStorage, so the domains mark their
 * phases (`markSend`) without being handed anything. The model request's own phases (written, first
 * byte of the answer) come from Node's `http.client.request.start` diagnostics channel, so the model
 * client (llm/completions.ts) knows nothing of the trace; they count only once the model was called
 * (a moderation call before it is not the model request). When the connection was accepted comes from
 * `net.server.socket` (`accepted`, before the zero, on a connection's first request), and listeners
 * get the zero's wall-clock time too, so a client on the same machine lines up its own times with
 * the server's (bench:class prints both on one clock).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

import type { MiddlewareHandler } from 'hono';

import type { Logger } from './errors';

/** The phases of a send, in the order they normally end. */
export const SEND_PHASES = [
  /**
   * Node accepted the connection: how long before the headers were read (0 or less), on a
   * connection's first request only (a kept-alive connection was accepted for an earlier one). The
   * wait between is the client's connect and Node reading the request off the socket, behind
   * whatever else the event loop was doing.
   */
  'accepted',
  /** The send reached its route (its headers were read at 0; the app's middlewares ran between). */
  'routed',
  /** The signed-in user is known (the bearer token checked, through the session cache). */
  'auth',
  /** The send's transaction committed (chat/service.ts `begin`). */
  'begin',
  /** The student's goals and memories read for the prompt. */
  'context',
  /** The question's safety check done (local, or the moderation endpoint). */
  'safety',
  /** The stored turns read, the prompt built: the model client is called. */
  'modelCalled',
  /** The model request's body handed to the socket. */
  'requestWritten',
  /** The model endpoint's answer began (status line and headers read). */
  'firstUpstreamByte',
  /** The first piece of the reply came out of the model client. */
  'firstPiece',
  /** The first piece was written to the student's event stream. */
  'firstWrite',
] as const;

export type SendPhase = (typeof SEND_PHASES)[number];

/** One send's trace: ms since its headers were read at which each phase ended (a phase not reached is absent). */
export type SendTrace = Partial<Record<SendPhase, number>>;

interface Recording {
  start: number;
  marks: SendTrace;
  done: boolean;
  logger: Logger;
}

const current = new AsyncLocalStorage<Recording>();
const listeners = new Set<(trace: SendTrace, at: number) => void>();
let watchingModelRequests = false;
/**
 * When each request's headers were read (Node's `http.server.request.start`), and when its
 * connection was accepted if it is the connection's first request (`net.server.socket`).
 */
const arrivals = new WeakMap<IncomingMessage, { read: number; accepted?: number }>();
/** When each connection was accepted, until its first request's headers are read. */
const accepted = new WeakMap<Socket, number>();
let watchingArrivals = false;

function watchArrivals() {
  if (watchingArrivals) return;
  watchingArrivals = true;
  subscribe('net.server.socket', (message) => {
    accepted.set((message as { socket: Socket }).socket, performance.now());
  });
  subscribe('http.server.request.start', (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    const at = accepted.get(socket);
    accepted.delete(socket);
    arrivals.set(request, {
      read: performance.now(),
      ...(at === undefined ? {} : { accepted: at }),
    });
  });
}

/**
 * Listens to every finished send trace of this process, with the wall-clock time of its zero (ms
 * since the epoch, `performance.timeOrigin` based: another process on the machine lines its own
 * times up with it); answers how to stop listening.
 */
export function onSendTrace(listener: (trace: SendTrace, at: number) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

function mark(recording: Recording, phase: SendPhase) {
  if (recording.done || recording.marks[phase] !== undefined) return;
  recording.marks[phase] = Math.round((performance.now() - recording.start) * 10) / 10;
}

/** Marks the end of `phase` for the send in progress (nothing when sends are not traced). */
export function markSend(phase: SendPhase): void {
  const recording = current.getStore();
  if (recording) mark(recording, phase);
}

/**
 * The model request's phases, from Node's HTTP client channel: the subscriber runs synchronously
 * where the request is made, so inside the send's AsyncLocalStorage context.
 */
function watchModelRequests() {
  if (watchingModelRequests) return;
  watchingModelRequests = true;
  subscribe('http.client.request.start', (message) => {
    const recording = current.getStore();
    if (!recording || recording.marks.modelCalled === undefined) return;
    if (recording.marks.requestWritten !== undefined) return;
    const { request } = message as { request: ClientRequest };
    request.once('finish', () => mark(recording, 'requestWritten'));
    request.once('response', () => mark(recording, 'firstUpstreamByte'));
  });
}

/**
 * Wraps a reply's pieces so the trace records the first piece out of the model client, and its
 * write: the reader asks for the next piece only once it has written the first.
 */
export function traceReply<T>(reply: AsyncGenerator<T, void, undefined>) {
  const recording = current.getStore();
  if (!recording) return reply;
  return (async function* traced() {
    let first = true;
    for await (const piece of reply) {
      if (first) mark(recording, 'firstPiece');
      yield piece;
      if (first) {
        first = false;
        finish(recording);
      }
    }
  })();
}

/** Ends the trace at the first write; it is logged and handed to the listeners once. */
function finish(recording: Recording) {
  mark(recording, 'firstWrite');
  recording.done = true;
  const at = performance.timeOrigin + recording.start;
  for (const listener of listeners) listener(recording.marks, at);
  recording.logger.info(`[trace] send ${JSON.stringify(recording.marks)}`);
}

/**
 * The middleware that starts a send's trace (first on the route, before the auth guard) when
 * `enabled`; `authenticated` marks the end of the auth guard's work (after it on the route).
 */
export function sendTrace(enabled: boolean, logger: Logger) {
  if (enabled) {
    watchArrivals();
    watchModelRequests();
  }
  const start: MiddlewareHandler = async (c, next) => {
    if (!enabled) return next();
    const now = performance.now();
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const arrived = incoming ? arrivals.get(incoming) : undefined;
    const recording: Recording = { start: arrived?.read ?? now, marks: {}, done: false, logger };
    if (arrived?.accepted !== undefined)
      recording.marks.accepted = Math.round((arrived.accepted - arrived.read) * 10) / 10;
    mark(recording, 'routed');
    await current.run(recording, next);
  };
  const authenticated: MiddlewareHandler = async (_c, next) => {
    markSend('auth');
    await next();
  };
  return { start, authenticated };
}
