/** `/api/v1/vector`: the caller's learning memory (API.md). */
import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';

import type { AuthEnv } from '../http/auth';
import { jsonDepthCheck } from '../http/json-depth';
import { BEARER, body, createRouter, errorResponses, json } from '../http/openapi';
import {
  hasNoNul,
  isWellFormed,
  jsonHasNoNul,
  jsonIsWellFormed,
  NUL_MESSAGE,
  SURROGATE_MESSAGE,
} from '../http/text';
import type { MemoryService } from './service';

const MAX_METADATA_CHARS = 4000;

const StoreBody = z
  .strictObject({
    text: z
      .string()
      .trim()
      .min(1)
      .max(8000)
      .refine(hasNoNul, NUL_MESSAGE)
      .refine(isWellFormed, SURROGATE_MESSAGE),
    metadata: z
      .record(z.string().max(100), z.unknown())
      .refine(...jsonDepthCheck)
      .refine((m) => JSON.stringify(m).length <= MAX_METADATA_CHARS, {
        message: `Metadata must be at most ${MAX_METADATA_CHARS} characters as JSON`,
      })
      .refine(jsonHasNoNul, NUL_MESSAGE)
      .refine(jsonIsWellFormed, SURROGATE_MESSAGE)
      .optional(),
  })
  .openapi('StoreUserDataRequest');

const SearchBody = z
  .strictObject({
    query: z.string().trim().min(1).max(1000),
    limit: z.number().int().min(1).max(20).default(5),
  })
  .openapi('SearchUserDataRequest');

export function memoryRoutes(auth: MiddlewareHandler<AuthEnv>, service: MemoryService) {
  const app = createRouter<AuthEnv>();
  const signedIn = { security: BEARER, middleware: auth };

  app.openapi(
    createRoute({
      method: 'post',
      path: '/store-user-data',
      summary: 'Remember something the student studied',
      ...signedIn,
      request: { body: body(StoreBody) },
      responses: {
        201: json(z.object({ id: z.string() }).openapi('StoredUserData'), 'Stored'),
        ...errorResponses(401, 409, 415, 422, 429),
      },
    }),
    async (c) => {
      const { text, metadata } = c.req.valid('json');
      const id = await service.store(
        c.var.auth.user.id,
        text,
        (metadata ?? {}) as Record<string, unknown>,
      );
      return c.json({ id }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/search-user-data',
      summary: "Search the caller's learning memory, best first",
      ...signedIn,
      request: { body: body(SearchBody) },
      responses: {
        200: json(
          z
            .object({
              results: z.array(
                z.object({
                  id: z.string(),
                  text: z.string(),
                  metadata: z.record(z.string(), z.unknown()),
                  score: z.number(),
                }),
              ),
            })
            .openapi('SearchUserDataResponse'),
          'Matches',
        ),
        ...errorResponses(401, 415, 422),
      },
    }),
    async (c) => {
      const { query, limit } = c.req.valid('json');
      const hits = await service.search(c.var.auth.user.id, query, limit);
      return c.json(
        { results: hits.map(({ id, text, metadata, score }) => ({ id, text, metadata, score })) },
        200,
      );
    },
  );

  return app;
}
