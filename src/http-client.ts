/**
 * What each feature's `<f>.http.ts` builds on: the client interface behind `createHttpApi`. A leaf
 * module, so the feature adapters and `http.ts`, which assembles them, never import each other.
 */

/** One request of a feature adapter: a path under `baseURL`, a method, a JSON or multipart body. */
export type HttpRequest = {
  /** 'GET' by default. */
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: Record<string, unknown> | FormData;
  /** Keys whose value is undefined are left out. */
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal | undefined;
};

/** One event of a streamed answer, its data parsed as JSON (or the raw text when it is not JSON). */
export type HttpStreamEvent = {
  event: string;
  data: unknown;
};

/** What each feature's `<f>.http.ts` builds on. */
export type HttpClient = {
  readonly baseURL: string;
  /**
   * A JSON call. Rejects with an ApiError (status 0 when no answer arrived), or with the abort
   * reason when `signal` aborts.
   */
  request<T>(path: string, request?: HttpRequest): Promise<T>;
  /**
   * POSTs JSON and reads the `text/event-stream` answer. A non-2xx answer and an `event: error`
   * (data `{detail}`) reject with an ApiError; a broken stream with an ApiError of status 0; an abort
   * cancels the request and rejects with the abort reason.
   */
  stream(
    path: string,
    request: { body: Record<string, unknown>; signal?: AbortSignal | undefined },
  ): AsyncGenerator<HttpStreamEvent, void, undefined>;
};
