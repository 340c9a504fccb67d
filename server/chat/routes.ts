/**
 * `/api/v1/chat`: the tutor conversation and its saved sessions (API.md's chat table).
 *
 * `POST /send/stream` answers `text/event-stream`: `event: chunk` (data: a JSON string of text) as the
 * reply is produced, then `event: done` (data: `{response, sessionId, threadId}`), or `event: error`
 * (data: `{detail}`). Everything that can be refused (validation, rate limit, someone else's session)
 * is refused before the stream starts, with an ordinary status code. A client that disconnects
 * cancels the upstream request.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { CHAT } from 'ayah-coach/rules';
import type { MiddlewareHandler } from 'hono';

import type { Deps } from '../deps';
import type { AuthEnv } from '../http/auth';
import { AppError } from '../http/errors';
import { BEARER, body, createRouter, errorResponses, json, TimeZoneHeaders } from '../http/openapi';
import { pageQuery } from '../http/paging';
import { sendTrace } from '../http/send-trace';
import { eventStream } from '../http/sse';
import { BUSY_STATUS, createStreamGate, type StreamTicket } from '../http/stream-gate';
import { requestTimeZone } from '../http/timezone';
import { TutorError } from '../llm/model';
import type { Tutor, TutorTurn } from '../ports';
import {
  Message,
  RenameBody,
  SearchPage,
  SearchQuery,
  SendBody,
  SendResponse,
  Session,
  SessionDetail,
  SessionIdParams,
  SessionPage,
} from './schemas';
import type { ChatService } from './service';
import { CHAT_MESSAGES, SEARCH_COUNT_LIMIT } from './service';
import { createStreamCap } from './stream-cap';

export const TUTOR_MESSAGES = {
  upstream: 'Ayah could not answer right now. Please try again.',
  timeout: 'Ayah took too long to answer. Please try again.',
  empty: 'Ayah sent an empty answer. Please try again.',
} as const;

function failureDetail(error: unknown): { status: 502 | 504; detail: string } {
  if (error instanceof TutorError && error.kind === 'timeout')
    return { status: 504, detail: TUTOR_MESSAGES.timeout };
  return { status: 502, detail: TUTOR_MESSAGES.upstream };
}

export function chatRoutes(
  deps: Deps,
  auth: MiddlewareHandler<AuthEnv>,
  chat: ChatService,
  tutor: Tutor,
) {
  const { logger } = deps;
  const app = createRouter<AuthEnv>();
  // This process's replies at once, and the line for them (503 past it).
  const gate = createStreamGate({
    maxStreams: deps.config.chat.maxStreams,
    queueSize: deps.config.chat.streamQueue,
    firstWords: deps.config.chat.firstWords,
  });
  // The search filer waits while replies are written or wait here: a class's burst is quiet only
  // once its replies are stored, not in the seconds between its questions and its replies.
  chat.holdSearchFilingWhile(() => {
    const { active, waiting } = gate.load();
    return active + waiting > 0;
  });
  const signedIn = { security: BEARER, middleware: auth };
  // AYAH_TRACE_SENDS=1: where a streamed send's time goes before its first words (http/send-trace.ts).
  const trace = sendTrace(deps.config.traceSends, logger);
  const replies = createStreamCap(deps.config.chat.concurrentReplies);
  // A reply's text in steps while many replies are written at once (config.ts `ReplyPacing`); its
  // first words, its status and its end at once.
  const { above, everyMs } = deps.config.chat.pacing;
  const pace = (event: string) => (event === 'chunk' && gate.load().active > above ? everyMs : 0);

  /**
   * Reads the whole reply; throws on failure. Nothing is stored unless the reply is complete. The
   * callbacks are synchronous: a chunk costs no promise of its own here (issue 26).
   */
  async function collect(
    turn: TutorTurn,
    onPiece?: (piece: string) => void,
    onStatus?: (status: string) => void,
  ) {
    let text = '';
    for await (const piece of turn.reply) {
      if (typeof piece !== 'string') {
        onStatus?.(piece.status);
        continue;
      }
      text += piece;
      onPiece?.(piece);
    }
    if (text.trim() === '') throw new AppError(502, TUTOR_MESSAGES.empty);
    return turn.complete(text);
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/send',
      summary: 'Send the conversation; answers with the whole reply',
      ...signedIn,
      request: { body: body(SendBody), headers: TimeZoneHeaders },
      responses: {
        200: json(SendResponse, 'The reply'),
        ...errorResponses(401, 404, 409, 415, 422, 429, 502, 503, 504),
      },
    }),
    async (c) => {
      const signal = c.req.raw.signal;
      const input = { ...c.req.valid('json'), timeZone: requestTimeZone(c) };
      const release = replies.acquire(c.var.auth.user.id);
      let place: StreamTicket | undefined;
      try {
        place = gate.enter();
        const turn = await tutor.begin(c.var.auth.user, input, signal);
        await place.ready(signal);
        const response = await collect(turn);
        // The one answer carries the whole turn: it is sent once the tutor has remembered it too.
        await turn.followUp();
        return c.json({ response, sessionId: turn.sessionId, threadId: turn.threadId }, 200);
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (!(error instanceof TutorError)) throw error;
        logger.warn(`[chat] reply failed (${error.kind}):`, error.cause ?? error);
        const { status, detail } = failureDetail(error);
        throw new AppError(status, detail);
      } finally {
        place?.release();
        release();
      }
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/send/stream',
      summary: 'Send the conversation; streams the reply as server-sent events',
      description:
        '`event: chunk` (data: a JSON string), `event: status` while the tutor checks its maths (data: a JSON ' +
        'string such as "Checking the maths…"; not part of the reply), then `event: done` (data: `{response, sessionId, threadId}`) ' +
        'or `event: error` (data: `{detail}`). When the server is writing as many replies as it can, the reply ' +
        'waits in line and a `status` event says so first; when the line is full too, 503 with Retry-After.',
      security: BEARER,
      middleware: [trace.start, auth, trace.authenticated],
      request: { body: body(SendBody), headers: TimeZoneHeaders },
      responses: {
        200: {
          description: 'The reply as it is written',
          content: { 'text/event-stream': { schema: z.string() } },
        },
        ...errorResponses(401, 404, 409, 415, 422, 429, 503),
      },
    }),
    async (c) => {
      const upstream = new AbortController();
      const requestSignal = c.req.raw.signal;
      const cancel = () => upstream.abort(new Error('client disconnected'));
      requestSignal.addEventListener('abort', cancel, { once: true });
      const input = { ...c.req.valid('json'), timeZone: requestTimeZone(c) };
      // A place is taken before anything is stored: a send the server cannot take loses nothing.
      const release = replies.acquire(c.var.auth.user.id);
      let place: StreamTicket;
      try {
        place = gate.enter({ awaitingFirstWords: true });
      } catch (error) {
        release();
        requestSignal.removeEventListener('abort', cancel);
        throw error;
      }
      let turn: TutorTurn;
      try {
        // First words first (http/stream-gate.ts): once its first words are out, the reply reads
        // more of the model only when its turn comes.
        turn = await tutor.begin(c.var.auth.user, input, upstream.signal, () => place.turn());
      } catch (error) {
        place.release();
        requestSignal.removeEventListener('abort', cancel);
        release();
        throw error;
      }
      return eventStream(
        c,
        async (events) => {
          try {
            if (place.waiting) {
              events.send('status', JSON.stringify(BUSY_STATUS));
              await place.ready(upstream.signal);
            }
            const response = await collect(
              turn,
              (piece) => {
                place.spoke();
                events.send('chunk', JSON.stringify(piece));
              },
              (status) => events.send('status', JSON.stringify(status)),
            );
            events.send(
              'done',
              JSON.stringify({ response, sessionId: turn.sessionId, threadId: turn.threadId }),
            );
            // The student has the reply (a client stops reading at `done`), and the stream ends
            // with it: the tutor remembers the turn after (the app's `stop` waits for that).
            void turn.followUp();
          } catch (error) {
            if (
              upstream.signal.aborted &&
              !(error instanceof TutorError && error.kind === 'timeout')
            ) {
              logger.info(`[chat] client left; reply for session ${turn.sessionId} cancelled`);
              return;
            }
            let detail: string;
            if (error instanceof AppError && typeof error.detail === 'string')
              detail = error.detail;
            else if (error instanceof TutorError) {
              logger.warn(`[chat] reply failed (${error.kind}):`, error.cause ?? error);
              detail = failureDetail(error).detail;
            } else {
              logger.error('[chat] reply failed:', error);
              detail = TUTOR_MESSAGES.upstream;
            }
            events.send('error', JSON.stringify({ detail }));
          } finally {
            place.release();
            requestSignal.removeEventListener('abort', cancel);
            release();
          }
        },
        cancel,
        pace,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/sessions',
      summary: 'Active sessions, newest activity first',
      ...signedIn,
      request: { query: pageQuery(CHAT.searchLimit) },
      responses: { 200: json(SessionPage, 'A page'), ...errorResponses(401, 422) },
    }),
    async (c) => c.json(await chat.listActive(c.var.auth.user.id, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/sessions/{id}',
      summary: 'One session with its messages',
      ...signedIn,
      request: { params: SessionIdParams },
      responses: { 200: json(SessionDetail, 'The session'), ...errorResponses(401, 404) },
    }),
    async (c) => c.json(await chat.get(c.var.auth.user.id, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/sessions/{id}/title',
      summary: 'Rename a session (1–100 characters)',
      ...signedIn,
      request: { params: SessionIdParams, body: body(RenameBody) },
      responses: {
        200: json(Session, 'The session'),
        ...errorResponses(401, 404, 409, 415, 422, 429, 503),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await chat.rename(c.var.auth.user.id, id, c.req.valid('json').title), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/sessions/{id}',
      summary: 'Delete a session',
      ...signedIn,
      request: { params: SessionIdParams },
      responses: { 200: json(Message, 'Deleted'), ...errorResponses(401, 404, 429) },
    }),
    async (c) => {
      await chat.remove(c.var.auth.user.id, c.req.valid('param').id);
      return c.json({ message: CHAT_MESSAGES.deleted }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/search',
      summary: 'Sessions whose title or messages contain the text (case-insensitive)',
      description:
        'Archived sessions are found too, marked `archived`. ' +
        `Newest activity first. \`total\` is exact up to ${SEARCH_COUNT_LIMIT} matches (or up to ` +
        'one past the page asked for, if further); past that it is a lower bound. `hasMore` is exact.',
      ...signedIn,
      request: { query: SearchQuery },
      responses: { 200: json(SearchPage, 'A page'), ...errorResponses(401, 422) },
    }),
    async (c) => {
      const { search, ...page } = c.req.valid('query');
      return c.json(await chat.search(c.var.auth.user.id, search, page), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/archives',
      summary: 'Archived sessions, most recently archived first',
      ...signedIn,
      request: { query: pageQuery(CHAT.archivedPageSize) },
      responses: { 200: json(SessionPage, 'A page'), ...errorResponses(401, 422) },
    }),
    async (c) => c.json(await chat.listArchived(c.var.auth.user.id, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/archives',
      summary: 'Archive every active session',
      ...signedIn,
      responses: { 200: json(Message, 'Archived'), ...errorResponses(401, 429) },
    }),
    async (c) => {
      await chat.archiveAll(c.var.auth.user.id);
      return c.json({ message: CHAT_MESSAGES.allArchived }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/all',
      summary: 'Delete every session, archived ones too',
      ...signedIn,
      responses: { 200: json(Message, 'Deleted'), ...errorResponses(401, 429) },
    }),
    async (c) => {
      await chat.deleteAll(c.var.auth.user.id);
      return c.json({ message: CHAT_MESSAGES.allDeleted }, 200);
    },
  );

  for (const [path, archived] of [
    ['/sessions/{id}/archive', true],
    ['/sessions/{id}/unarchive', false],
  ] as const) {
    app.openapi(
      createRoute({
        method: 'patch',
        path,
        summary: archived ? 'Archive a session' : 'Bring a session back from the archive',
        ...signedIn,
        request: { params: SessionIdParams },
        responses: { 200: json(Session, 'The session'), ...errorResponses(401, 404, 429) },
      }),
      async (c) => {
        const { id } = c.req.valid('param');
        const userId = c.var.auth.user.id;
        return c.json(
          archived ? await chat.archive(userId, id) : await chat.unarchive(userId, id),
          200,
        );
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/sessions/{id}/archive',
      summary: 'Delete an archived session',
      ...signedIn,
      request: { params: SessionIdParams },
      responses: { 200: json(Message, 'Deleted'), ...errorResponses(401, 404, 429) },
    }),
    async (c) => {
      await chat.remove(c.var.auth.user.id, c.req.valid('param').id, true);
      return c.json({ message: CHAT_MESSAGES.deleted }, 200);
    },
  );

  return app;
}
