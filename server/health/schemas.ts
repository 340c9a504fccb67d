/** The wire shape of `GET /api/v1/health` (zod, OpenAPI generated from it). */
import { z } from '@hono/zod-openapi';

export const Health = z
  .object({ status: z.literal('ok'), tutor: z.enum(['offline', 'model']) })
  .openapi('Health');
