/**
 * Errors on the wire are FastAPI-shaped (API.md): `{"detail": "text"}`, and for validation
 * `422 {"detail": [{"loc": [...], "msg": "...", "type": "..."}]}`. Inputs are never echoed back.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { $ZodIssue } from 'zod/v4/core';

import { pgErrorCode } from '../db';
import { NUL_MESSAGE } from './text';

export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** An expected failure: its status and detail go to the client as they are. */
export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly detail: string | ValidationItem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : 'Validation error');
    this.name = 'AppError';
  }
}

/** How a 401 says to authenticate (RFC 6750): every refusal of a missing or bad bearer token. */
const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

/** A 401 with the bearer challenge; `detail` is what the client shows. */
export function unauthorized(detail: string): AppError {
  return new AppError(401, detail, BEARER_CHALLENGE);
}

export type Target = 'json' | 'form' | 'query' | 'param' | 'header' | 'cookie';
const LOC_ROOT: Record<Target, string> = {
  json: 'body',
  form: 'body',
  query: 'query',
  param: 'path',
  header: 'header',
  cookie: 'cookie',
};

function has(input: unknown, path: PropertyKey[]): boolean {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value !== undefined;
}

const TYPE_NAMES: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  number: ['float_type', 'Input should be a valid number'],
  int: ['int_type', 'Input should be a valid integer'],
  array: ['list_type', 'Input should be a valid list'],
  object: [
    'model_attributes_type',
    'Input should be a valid dictionary or object to extract fields from',
  ],
};

/** Maps zod issues to FastAPI's validation items (pydantic's type names where one fits). */
export function validationItems(
  issues: readonly $ZodIssue[],
  target: Target,
  input: unknown,
): ValidationItem[] {
  const root = LOC_ROOT[target];
  const items: ValidationItem[] = [];
  for (const issue of issues) {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    const loc = [root, ...path];
    const absent = path.length > 0 && !has(input, issue.path);
    if (absent && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) {
      items.push({ loc, msg: 'Field required', type: 'missing' });
      continue;
    }
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) {
          items.push({
            loc: [...loc, key],
            msg: 'Extra inputs are not permitted',
            type: 'extra_forbidden',
          });
        }
        break;
      case 'invalid_type': {
        const [type, msg] = TYPE_NAMES[issue.expected] ?? [`${issue.expected}_type`, issue.message];
        items.push({ loc, msg, type });
        break;
      }
      case 'too_small':
        items.push({
          loc,
          msg:
            issue.origin === 'string'
              ? issue.message.startsWith('Too small')
                ? `String should have at least ${issue.minimum} characters`
                : issue.message
              : issue.message,
          type: issue.origin === 'string' ? 'string_too_short' : 'greater_than_equal',
        });
        break;
      case 'too_big':
        items.push({
          loc,
          msg:
            issue.origin === 'string' && issue.message.startsWith('Too big')
              ? `String should have at most ${issue.maximum} characters`
              : issue.message,
          type: issue.origin === 'string' ? 'string_too_long' : 'less_than_equal',
        });
        break;
      case 'invalid_value':
        items.push({ loc, msg: issue.message, type: 'literal_error' });
        break;
      case 'invalid_format':
      case 'custom':
        items.push({ loc, msg: issue.message, type: 'value_error' });
        break;
      default:
        items.push({ loc, msg: issue.message, type: issue.code });
    }
  }
  return items;
}

/** The OpenAPIHono default hook: a failed validation becomes FastAPI's 422. */
export function validationHook(
  result: {
    success: boolean;
    error?: { issues: readonly $ZodIssue[] };
    target: string;
    data?: unknown;
  },
  _c: Context,
): void {
  if (result.success || !result.error) return;
  throw new AppError(
    422,
    validationItems(result.error.issues, result.target as Target, result.data),
  );
}

export type Logger = Pick<Console, 'info' | 'warn' | 'error'>;

/** PostgreSQL's refusals of a NUL: in text (invalid byte sequence) and in jsonb (\u0000). */
const NUL_REFUSED = new Set(['22021', '22P05']);

/** Every thrown error becomes a FastAPI-shaped answer; only the unexpected ones say 500 (and are logged). */
export function errorResponse(error: unknown, c: Context, logger: Logger): Response {
  if (error instanceof AppError) {
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    return c.json({ detail: error.detail }, error.status);
  }
  if (error instanceof HTTPException) {
    // Hono's validators say 400 for a body they cannot parse; FastAPI says 422 json_invalid.
    if (error.status === 400 && error.message.startsWith('Malformed JSON')) {
      return c.json(
        { detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }] },
        422,
      );
    }
    if (error.status === 400 && error.message.startsWith('Malformed FormData')) {
      return c.json({ detail: 'There was an error parsing the body' }, 400);
    }
    const status = error.status as ContentfulStatusCode;
    return c.json({ detail: error.message || statusText(status) }, status);
  }
  // A NUL the request's validation let through (text.ts): the client's mistake, and a field to fix.
  if (NUL_REFUSED.has(pgErrorCode(error) ?? '')) {
    logger.warn(`[http] ${c.req.method} ${c.req.path}: a NUL reached the database unchecked`);
    return c.json({ detail: NUL_MESSAGE }, 422);
  }
  // A write naming a row that went meanwhile: the account was deleted while its request ran (the
  // request had passed the bearer check), or something of theirs, deleted by another of their tabs.
  if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) {
    logger.warn(`[http] ${c.req.method} ${c.req.path}: ${describeForLog(error)}`);
    return namesUser(error)
      ? c.json({ detail: 'Could not validate credentials' }, 401, BEARER_CHALLENGE)
      : c.json({ detail: 'Not Found' }, 404);
  }
  // A bounded transaction (db/bounds.ts) that waited too long for another request of the same
  // account, or ran too long: the client may try again; nothing was written.
  if (pgErrorCode(error) === LOCK_NOT_AVAILABLE) {
    return c.json({ detail: BUSY_MESSAGES.locked }, 409, { 'Retry-After': '1' });
  }
  if (pgErrorCode(error) === QUERY_CANCELED) {
    logger.warn(`[http] ${c.req.method} ${c.req.path}: a statement ran past its timeout`);
    return c.json({ detail: BUSY_MESSAGES.timedOut }, 503, { 'Retry-After': '1' });
  }
  logger.error(`[http] ${c.req.method} ${c.req.path} failed:`, loggable(error));
  return c.json({ detail: 'Internal Server Error' }, 500);
}

const LOCK_NOT_AVAILABLE = '55P03';
const QUERY_CANCELED = '57014';

export const BUSY_MESSAGES = {
  locked: 'This is being changed by another request. Please try again in a moment.',
  timedOut: 'The server is busy. Please try again in a moment.',
} as const;

const FOREIGN_KEY_VIOLATION = '23503';

/** The database's error itself (drizzle wraps it as the `cause` of a DrizzleQueryError). */
function databaseError(error: unknown): Record<string, unknown> | null {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return e as Record<string, unknown>;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** A foreign key to `users` (every such constraint is named `<table>_user_id_users_id_fk`). */
const namesUser = (error: unknown) =>
  /_users_id_fk$|_user_id_fkey$/.test(String(databaseError(error)?.constraint ?? ''));

/**
 * A database error as the log may keep it: its code, where it happened and the statement, but
 * never the statement's parameters or the error's message and detail, which can quote what a student
 * wrote (a child's message text must not reach a log).
 */
function describeForLog(error: unknown): string {
  const db = databaseError(error);
  if (!db) return error instanceof Error ? error.name : 'error';
  const statement =
    error instanceof Error && error.message.startsWith('Failed query: ')
      ? (error.message.slice('Failed query: '.length).split('\nparams:')[0] ?? '')
      : '';
  const where = ['table', 'column', 'constraint', 'routine']
    .filter((key) => typeof db[key] === 'string')
    .map((key) => `${key} ${String(db[key])}`)
    .join(', ');
  return `database error ${String(db.code)}${where ? ` (${where})` : ''}${statement ? `: ${statement}` : ''}`;
}

/** What `logger.error` receives for an unexpected error: database errors described without values. */
function loggable(error: unknown): unknown {
  return databaseError(error) ? describeForLog(error) : error;
}

function statusText(status: number): string {
  const texts: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    413: 'Request Entity Too Large',
    415: 'Unsupported Media Type',
    429: 'Too Many Requests',
  };
  return texts[status] ?? 'Error';
}
