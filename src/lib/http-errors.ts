/**
 * The HTTP error catalogue of spec section 8, once, as pure functions. `src/http.ts` runs every failed
 * answer through `describeHttpError`; features read `status` to branch and `detail` to map a server's
 * own words (the sign-in screen looks for 'verif' in it), and show `message` otherwise.
 */

/** The catalogue's fixed texts (spec section 8), plus the one for a request that got no answer. */
export const HTTP_ERROR_MESSAGES = {
  unauthorized: 'Authentication required. Please log in again.',
  forbidden: 'Access forbidden. Insufficient permissions.',
  notFound: 'Resource not found.',
  validation: 'Validation failed. Please check your input.',
  server: 'Server error. Please try again later.',
  network: 'Network error. Please check your connection.',
} as const;

/** The marker a server puts in an error's detail or message when the caller's trial has ended. */
export const TRIAL_EXPIRED = 'TRIAL_EXPIRED';

/**
 * A failed API call. Aborted calls never become an ApiError: they reject with the abort reason (an
 * `AbortError`), so a machine can tell a cancel from a failure (see `isAbortError`).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /**
   * The HTTP status of the answer that carried the error: 0 when no complete answer arrived (the
   * network failed, or a stream broke off), 200 for an `error` event inside a streamed answer.
   */
  readonly status: number;
  /**
   * The server's own words, raw: the body's `detail` (a string, or FastAPI's list of
   * `{loc, msg, type}`), else its `message`, else a non-empty text body; `undefined` otherwise.
   */
  readonly detail: unknown;

  constructor(status: number, message: string, detail?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
    this.detail = detail;
  }
}

/** The server's own text for a failed call: its `detail` when that is a non-empty string, else ''. */
export function serverDetail(error: unknown): string {
  return error instanceof ApiError && typeof error.detail === 'string' ? error.detail.trim() : '';
}

/**
 * The one rule for "the server's words, or the spec's": the server's `detail` text when it gave one
 * (any status: 'Invalid signature' on a 401, the 3-subject limit on a 400), else for a 404 or 422 the
 * HTTP layer's message (FastAPI's items joined, or the catalogue's text), else `fallback` — a 5xx
 * without words, a call that got no answer, or any error that is not an ApiError.
 */
export function serverMessage(error: unknown, fallback: string): string {
  const detail = serverDetail(error);
  if (detail) return detail;
  if (error instanceof ApiError && (error.status === 422 || error.status === 404)) {
    return error.message;
  }
  return fallback;
}

/** Whether a call failed with this HTTP status. */
export function isStatus(error: unknown, status: number): boolean {
  return error instanceof ApiError && error.status === status;
}

/** True for the rejection of an aborted call (a `DOMException` or `Error` named `AbortError`). */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  );
}

/**
 * Turns a non-2xx answer into an ApiError. `message` is the catalogue's text for 401, 403, 5xx (the
 * server's words stay in `detail`); for 404, 422 and every other status it is the server's words when
 * it gave any, else the catalogue's default. With no status text the fallback is `HTTP {status}`.
 */
export function describeHttpError(status: number, statusText: string, body: unknown): ApiError {
  const detail = rawDetail(body);
  return new ApiError(status, messageFor(status, statusText, body), detail);
}

/**
 * The ApiError for an `event: error` inside a streamed answer (data `{detail}`): the server's words
 * when it gave any, else the catalogue's server error.
 */
export function describeStreamError(data: unknown): ApiError {
  const detail = rawDetail(data);
  return new ApiError(200, textOf(detail) || HTTP_ERROR_MESSAGES.server, detail);
}

/** The ApiError for a call that got no complete answer (the fetch rejected, or the body broke off). */
export function networkError(cause?: unknown, detail?: unknown): ApiError {
  return new ApiError(0, HTTP_ERROR_MESSAGES.network, detail, { cause });
}

/** True when TRIAL_EXPIRED appears anywhere in an error body's `detail` or `message` (or text body). */
export function isTrialExpired(body: unknown): boolean {
  if (typeof body === 'string') return body.includes(TRIAL_EXPIRED);
  if (!isRecord(body)) return false;
  return [body.detail, body.message].some((part) => stringify(part).includes(TRIAL_EXPIRED));
}

function messageFor(status: number, statusText: string, body: unknown): string {
  const fields = isRecord(body) ? body : {};
  const fromServer = textOf(fields.detail) || textOf(fields.message);
  if (status === 401) return HTTP_ERROR_MESSAGES.unauthorized;
  if (status === 403) return HTTP_ERROR_MESSAGES.forbidden;
  if (status >= 500) return HTTP_ERROR_MESSAGES.server;
  if (status === 404) return fromServer || HTTP_ERROR_MESSAGES.notFound;
  if (status === 422) return fromServer || HTTP_ERROR_MESSAGES.validation;
  return fromServer || (statusText ? `HTTP ${status}: ${statusText}` : `HTTP ${status}`);
}

/**
 * The readable text of a detail: a string as is; FastAPI's list joined by ', ' (each item's `msg`, or
 * the item itself when it is a string); an object as 'field: values' joined by '; '.
 */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) {
    return value
      .map((item) => (isRecord(item) ? textOf(item.msg) : textOf(item)))
      .filter(Boolean)
      .join(', ');
  }
  if (isRecord(value)) {
    return Object.entries(value)
      .map(([field, values]) => {
        const text = Array.isArray(values) ? values.map(String).join(', ') : stringify(values);
        return text ? `${field}: ${text}` : '';
      })
      .filter(Boolean)
      .join('; ');
  }
  return '';
}

function rawDetail(body: unknown): unknown {
  if (isRecord(body)) return body.detail ?? body.message;
  if (typeof body === 'string' && body.trim()) return body;
  return undefined;
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
