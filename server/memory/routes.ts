/** `/api/v1/vector`: the caller's learning memory (API.md). */
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';

import type { AuthEnv } from '../http/auth';
import { BEARER, body, createRouter, errorResponses, json } from '../http/openapi';
import { SearchBody, SearchResults, StoreBody, StoredUserData } from './schemas';
import type { MemoryService } from './service';

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
        201: json(StoredUserData, 'Stored'),
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
        200: json(SearchResults, 'Matches'),
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
