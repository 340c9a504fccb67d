/**
 * `GET /api/v1/health`: 200 once the database answers, 503 while it does not. `tutor` says who answers
 * chat: `model` (an LLM endpoint is configured) or `offline` (the built-in offline coach) — for
 * whoever runs the server, never shown to students.
 */
import { createRoute } from '@hono/zod-openapi';

import type { Database } from '../db';
import { createRouter, errorResponses, PUBLIC } from '../http/openapi';
import { Health } from './schemas';
import { checkDatabase } from './service';

export function healthRoutes(database: Database, tutor: 'offline' | 'model' = 'offline') {
  const app = createRouter();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/health',
      security: PUBLIC,
      summary: 'Liveness and database readiness',
      responses: {
        200: {
          description: 'Up, and the database answers',
          content: { 'application/json': { schema: Health } },
        },
        ...errorResponses(503),
      },
    }),
    async (c) => {
      await checkDatabase(database);
      return c.json({ status: 'ok' as const, tutor }, 200);
    },
  );
  return app;
}
