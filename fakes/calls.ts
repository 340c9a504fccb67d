/**
 * How a fake adapter's call settles, once for every feature's fake: a failure as the HTTP adapter
 * reports it, a promise the test settles, a call that never settles. No test framework is imported,
 * so stories and tests share it (tests reach it through tests/support).
 */
import type { CallOptions } from '../src/api';
import { type ApiError, describeHttpError } from '../src/lib/http-errors';

/**
 * The error the HTTP adapter rejects with for `status` and a `{detail}` body: its `message` is the
 * catalogue's text for 401, 403 and 5xx, else the server's words (see `describeHttpError`).
 */
export function apiError(status = 500, detail?: unknown): ApiError {
  return describeHttpError(status, '', detail === undefined ? {} : { detail });
}

export type Deferred<T> = {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
};

/** A promise settled from outside, to hold a machine in an in-flight state. */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The rejection of an aborted call, as the HTTP adapter gives it. */
export function abortError(): DOMException {
  return new DOMException('The operation was aborted.', 'AbortError');
}

/** A call that never settles, unless its signal aborts it. */
export function pending<T>(options?: CallOptions): Promise<T> {
  return new Promise<T>((_, reject) => {
    options?.signal?.addEventListener('abort', () => reject(abortError()), { once: true });
  });
}

/** A call that never settles: the machine stays in its in-flight state. */
export const never = (): Promise<never> => new Promise<never>(() => {});

/** A call that rejects with `error`. */
export const rejects = (error: unknown) => async (): Promise<never> => {
  throw error;
};
