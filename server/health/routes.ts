/**
 * `GET /api/v1/health`: 200 once the database answers, 503 while it does not. `tutor` says who answers
 * chat: `model` (an LLM endpoint is configured) or `offline` (the built-in offline coach) — for
 * whoever runs the server, never shown to students.
 */
import { createRoute, z } from '@hono/zod-openapi';

import type { Database } from '../db';
import { AppError } from '../http/errors';
import { createRouter, errorResponses, PUBLIC } from '../http/openapi';

const PING_TIMEOUT_MS = 2000;

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
          content: {
            'application/json': {
              schema: z
                .object({ status: z.literal('ok'), tutor: z.enum(['offline', 'model']) })
                .openapi('Health'),
            },
          },
        },
        ...errorResponses(503),
      },
    }),
    async (c) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS);
      });
      try {
        await Promise.race([database.ping(), timeout]);
      } catch {
        throw new AppError(503, 'Database unavailable');
      } finally {
        clearTimeout(timer);
      }
      return c.json({ status: 'ok' as const, tutor }, 200);
    },
  );
  return app;
}
