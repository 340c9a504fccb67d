/**
 * `GET /api/v1/legal/{terms|privacy}`: the terms of use and the privacy notice as markdown. A school
 * replaces either by writing `terms.md` or `privacy.md` into the data dir; the file is read on every
 * request, so an edit shows without a restart. The title is the text's first `# ` heading.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { createRoute, z } from '@hono/zod-openapi';

import type { Deps } from '../deps';
import { createRouter, errorResponses } from '../http/openapi';
import { DEFAULT_PAGES, type LegalPageName } from './defaults';

const TITLES: Record<LegalPageName, string> = { terms: 'Terms of use', privacy: 'Privacy notice' };

const LegalPage = z
  .object({
    title: z.string(),
    markdown: z.string().openapi({ description: 'The text, without its title heading' }),
  })
  .openapi('LegalPage');

/** Splits a leading `# Title` off the text; without one the page's usual title is kept. */
export function legalPage(name: LegalPageName, text: string) {
  const match = /^\s*#\s+(.+?)\s*(?:\r?\n|$)/.exec(text);
  if (!match) return { title: TITLES[name], markdown: text.trim() };
  return { title: match[1]!, markdown: text.slice(match[0].length).trim() };
}

export function legalRoutes(deps: Deps) {
  const app = createRouter();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/legal/{name}',
      summary: "The terms of use or the privacy notice (the school's own, else a default)",
      request: { params: z.object({ name: z.enum(['terms', 'privacy']) }) },
      responses: {
        200: { content: { 'application/json': { schema: LegalPage } }, description: 'The page' },
        ...errorResponses(422),
      },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      const file = path.join(deps.config.dataDir, `${name}.md`);
      const text = await readFile(file, 'utf8').catch(() => DEFAULT_PAGES[name]);
      c.header('Cache-Control', 'no-cache');
      return c.json(legalPage(name, text.trim() ? text : DEFAULT_PAGES[name]), 200);
    },
  );
  return app;
}
