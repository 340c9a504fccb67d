/**
 * The Api over HTTP: one small fetch client (bearer token, no cookies, JSON, no retries) and the error
 * catalogue of spec section 8, shared by every feature's `<f>.http.ts`. Plain fetch rather than a
 * library: it is part of every page's first load.
 */
import type { Api } from './api';
import { archiveHttp } from './archive.http';
import { authHttp } from './auth/auth.http';
import { chatHttp } from './chat/chat.http';
import { goalsHttp } from './goals/goals.http';
import type { HttpClient, HttpRequest } from './http-client';
import {
  ApiError,
  describeHttpError,
  describeStreamError,
  isAbortError,
  isTrialExpired,
  networkError,
} from './lib/http-errors';
import { readSse } from './lib/sse';
import { createPortalSession, type PortalSession } from './portal-session';
import { settingsHttp } from './settings/settings.http';
import { teacherHttp } from './teacher/teacher.http';
import { walletHttp } from './wallet/wallet.http';

/** How the app reaches its backend. */
export type HttpApiOptions = {
  /** The API host, e.g. 'https://api.example.org', or '' for the page's own origin. */
  baseURL: string;
  /**
   * The current access token, or nothing when signed out (then no Authorization header goes).
   * Not needed with `getPortalAssertion`, which keeps its own tokens.
   */
  getToken?: () => string | null | undefined | Promise<string | null | undefined>;
  /**
   * A school portal's sign-in: answers a fresh assertion (the short-lived JWT the portal's backend
   * signs for its student; see README, "Embed Ayah in your portal"). When given, the adapter
   * exchanges it at `POST /api/v1/auth/token-exchange` before the first call, keeps the tokens
   * itself, renews a refused token with the refresh token, and asks for a new assertion when the
   * session cannot be renewed; a call refused even then rejects (and calls `onUnauthorized`).
   */
  getPortalAssertion?: () => string | Promise<string>;
  /** Called on every 401, before the call rejects: the host clears its token and signs out. */
  onUnauthorized?: () => void;
  /** Called when an error body's detail or message says TRIAL_EXPIRED; nothing is blocked. */
  onTrialExpired?: () => void;
  /** The fetch to use; the global one by default. */
  fetch?: typeof globalThis.fetch;
};

/**
 * Builds the Api that speaks the REST contract of API.md. A 401 calls `onUnauthorized`; TRIAL_EXPIRED
 * calls `onTrialExpired`; a 402 is logged and rejects like any other error (the interim-premium flag
 * is always on, so nothing is gated on it and it never signs anyone out).
 */
export function createHttpApi(options: HttpApiOptions): Api {
  const client = createHttpClient(options);
  return {
    auth: authHttp(client),
    chat: chatHttp(client),
    goals: goalsHttp(client),
    wallet: walletHttp(client),
    settings: settingsHttp(client, archiveHttp(client)),
    teacher: teacherHttp(client),
  };
}

/** The one HTTP client behind `createHttpApi`, for a host that adds its own adapter. */
export function createHttpClient(options: HttpApiOptions): HttpClient {
  const { baseURL, getToken, onUnauthorized, onTrialExpired } = options;
  const portal: PortalSession | null = options.getPortalAssertion
    ? createPortalSession({
        baseURL,
        getPortalAssertion: options.getPortalAssertion,
        fetch: options.fetch,
      })
    : null;

  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = baseURL.replace(/\/+$/, '');

  /**
   * Sends one call and answers its response; a 4xx or 5xx answer rejects with its ApiError (after the
   * 401 and TRIAL_EXPIRED callbacks), a failure to reach the server with a network ApiError.
   */
  async function send(
    path: string,
    { method = 'GET', body, query, signal }: HttpRequest,
    accept = 'application/json',
  ): Promise<Response> {
    const headers = new Headers({ accept });
    const token = portal ? await portal.token() : await getToken?.();
    if (token) headers.set('authorization', `Bearer ${token}`);
    // Weeks and streaks count in the student's own zone (API.md, Goals).
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) headers.set('x-timezone', zone);
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers.set('content-type', 'application/json');
    }
    let response: Response;
    try {
      response = await doFetch(urlOf(base, path, query), {
        method,
        headers,
        body: payload,
        credentials: 'omit',
        signal,
      });
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) throw error;
      throw networkError(error);
    }
    if (response.status < 400) return response;
    // The error's body, JSON when it parses (an event stream's too), else its text.
    const answer = await response.text().then(parseData, () => undefined);
    // A portal's session is renewed first (below): only a refusal after that signs out.
    if (response.status === 401 && !portal) onUnauthorized?.();
    if (response.status === 402) {
      console.warn('[ayah] 402 Payment Required (not gated: interim premium)', answer);
    }
    if (isTrialExpired(answer)) onTrialExpired?.();
    throw describeHttpError(response.status, response.statusText, answer);
  }

  /** Runs a call; with a portal's sign-in, a 401 renews the session and the call goes once more. */
  async function withPortalRenewal<T>(call: () => Promise<T>): Promise<T> {
    if (!portal) return call();
    const refused = (error: unknown) => error instanceof ApiError && error.status === 401;
    let generation: number;
    try {
      await portal.token();
      generation = portal.generation;
    } catch (error) {
      // The portal's assertion itself was refused: nothing more to try.
      if (refused(error)) onUnauthorized?.();
      throw error;
    }
    try {
      return await call();
    } catch (error) {
      if (!refused(error)) throw error;
    }
    try {
      await portal.renew(generation);
      return await call();
    } catch (error) {
      if (refused(error)) onUnauthorized?.();
      throw error;
    }
  }

  return {
    baseURL,

    async request<T>(path: string, { method = 'GET', body, query, signal }: HttpRequest = {}) {
      return withPortalRenewal(async () => {
        try {
          return (await readBody(await send(path, { method, body, query, signal }))) as T;
        } catch (error) {
          throw settle(error, signal);
        }
      });
    },

    async *stream(path, { body, signal }) {
      const response = await withPortalRenewal(async () => {
        try {
          return await send(path, { method: 'POST', body, signal }, 'text/event-stream');
        } catch (error) {
          throw settle(error, signal);
        }
      });
      if (!response.body) throw networkError(undefined, 'The answer has no body.');
      try {
        for await (const message of readSse(response.body, signal)) {
          const data = parseData(message.data);
          if (message.event === 'error') {
            if (isTrialExpired(data)) onTrialExpired?.();
            throw describeStreamError(data);
          }
          yield { event: message.event, data };
        }
      } catch (error) {
        throw settle(error, signal);
      }
    },
  };
}

/** Keeps ApiErrors and aborts as they are; any other failure means the answer never fully arrived. */
function settle(error: unknown, signal: AbortSignal | undefined): unknown {
  if (error instanceof ApiError) return error;
  if (signal?.aborted || isAbortError(error)) return error;
  if (error instanceof TypeError) return networkError(error);
  return error;
}

/** `path` under the API's base, with the query's defined values. */
function urlOf(base: string, path: string, query: HttpRequest['query']): string {
  let url =
    base && !path.startsWith(base) ? `${base}${path.startsWith('/') ? '' : '/'}${path}` : path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.append(key, String(value));
  }
  const search = params.toString();
  if (search) url += `${url.includes('?') ? '&' : '?'}${search}`;
  return url;
}

/**
 * An answer's body: JSON (or its text when it does not parse) for a JSON or untyped answer, text for a
 * text one, a Blob otherwise, and nothing for an answer without a body.
 */
async function readBody(response: Response): Promise<unknown> {
  if (!response.body || [101, 204, 205, 304].includes(response.status)) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!type || /\bjson\b|\+json/i.test(type)) return parseData(await response.text());
  if (/^text\/|svg|xml/i.test(type)) return response.text();
  return response.blob();
}

function parseData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
