/**
 * `GET /api/v1/legal/{terms|privacy}`: the terms of use and the privacy notice as markdown (the
 * school's own from the data dir, else a default: service.ts).
 */
import { createRoute } from '@hono/zod-openapi';

import type { Deps } from '../deps';
import { createRouter, errorResponses } from '../http/openapi';
import { LegalPage, LegalPageParams } from './schemas';
import { readLegalPage } from './service';

export function legalRoutes(deps: Deps) {
  const app = createRouter();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/legal/{name}',
      summary: "The terms of use or the privacy notice (the school's own, else a default)",
      request: { params: LegalPageParams },
      responses: {
        200: { content: { 'application/json': { schema: LegalPage } }, description: 'The page' },
        ...errorResponses(422),
      },
    }),
    async (c) => {
      const page = await readLegalPage(deps.config.dataDir, c.req.valid('param').name);
      c.header('Cache-Control', 'no-cache');
      return c.json(page, 200);
    },
  );
  return app;
}
