/**
 * Pieces every domain's routes share: the router factory, the error schema, the time zone header,
 * the bearer scheme, and the `json`/`body` helpers of a route's answer and request body.
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Env } from 'hono';

import { validationHook } from './errors';

export const ErrorSchema = z
  .object({
    detail: z.union([
      z.string(),
      z.array(
        z.object({
          loc: z.array(z.union([z.string(), z.number()])),
          msg: z.string(),
          type: z.string(),
        }),
      ),
    ]),
  })
  .openapi('Error');

/**
 * The `X-Timezone` header in OpenAPI, for routes whose answers count days or weeks (read by
 * timezone.ts's `requestTimeZone`, which has no schema: the maths threads import it, not zod).
 */
export const TimeZoneHeaders = z.object({
  'x-timezone': z.string().optional().openapi({
    description:
      'The caller’s IANA time zone (e.g. America/Los_Angeles): weeks (Monday–Sunday) and days are counted in it. UTC when absent or unknown.',
    example: 'Europe/Berlin',
  }),
});

const DESCRIPTIONS: Record<number, string> = {
  400: 'The request cannot be carried out',
  401: 'Missing, expired or invalid credentials',
  403: 'Not allowed for this caller',
  404: 'Not found',
  409: 'Conflicts with existing data',
  413: 'Body too large',
  415: 'Unsupported content type',
  422: 'Validation error',
  429: 'Too many attempts; see Retry-After',
  503: 'Unavailable',
};

/** OpenAPI entries for the error answers a route can give, all FastAPI-shaped. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/json': { schema: ErrorSchema } },
      },
    ]),
  );
}

/** A route's JSON answer, for `responses`. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

/** A route's required JSON request body, for `request.body`. */
export const body = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

export const BEARER = [{ Bearer: [] }];

/** A router whose failed validations answer FastAPI's 422. */
export function createRouter<E extends Env = Env>(): OpenAPIHono<E> {
  return new OpenAPIHono<E>({ defaultHook: validationHook });
}

/** `security` of a route anyone may call: the document's default is the bearer token. */
export const PUBLIC: { [scheme: string]: string[] }[] = [];

/**
 * `post /api/v1/chat/sessions/{id}/title` → `postChatSessionsByIdTitle`: the operationId a route gets
 * unless it names its own, so that every operation of the document has one (a portal's generated
 * client names its methods after them) and they stay stable as routes are added.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v\d+/, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/^\{(.+)\}$/, 'by-$1'))
    .flatMap((segment) => segment.split(/[^a-zA-Z0-9]+/))
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

/** Gives every registered route without an operationId the one `operationIdOf` makes. */
export function nameOperations(app: OpenAPIHono<Env>): void {
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const { route } = definition;
    route.operationId ??= operationIdOf(route.method, route.path);
  }
}
