import { ApiError } from '../lib/http-errors';

/**
 * The server's words for a refusal (a 4xx other than 401/403, e.g. the 3-subject limit or the 50 %
 * edit lock), else `fallback`. 5xx and network failures get the fallback too.
 */
export function refusalMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    if (error.status !== 401 && error.status !== 403 && error.message) return error.message;
  }
  return fallback;
}

/** The words the HTTP layer gave a failed call (the server's, or the catalogue's), else `fallback`. */
export function serverMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

/** Whether a call failed with this HTTP status. */
export function isStatus(error: unknown, status: number): boolean {
  return error instanceof ApiError && error.status === status;
}
