/** The wire shapes of `/api/v1/legal/*` (zod, OpenAPI generated from them). */
import { z } from '@hono/zod-openapi';

export const LegalPageParams = z.object({ name: z.enum(['terms', 'privacy']) });

export const LegalPage = z
  .object({
    title: z.string(),
    markdown: z.string().openapi({ description: 'The text, without its title heading' }),
  })
  .openapi('LegalPage');
