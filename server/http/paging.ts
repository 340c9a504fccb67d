/**
 * API.md's paging, shared by chat, goals and tokens: `?limit&page` (page from 1) in, and
 * `{<items>, total, page, limit, hasMore}` out.
 */
import { z } from '@hono/zod-openapi';

const MAX_LIMIT = 100;

/** The query schema of a paged list, with the route's own default page size. */
export function pageQuery(defaultLimit: number) {
  return z.strictObject({
    limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(defaultLimit).openapi({
      type: 'integer',
      minimum: 1,
      maximum: MAX_LIMIT,
      default: defaultLimit,
    }),
    page: z.coerce
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .default(1)
      .openapi({ type: 'integer', minimum: 1, default: 1 }),
  });
}

export interface Page {
  limit: number;
  page: number;
}

export const offsetOf = ({ limit, page }: Page) => (page - 1) * limit;

export function paged<K extends string, T>(
  key: K,
  items: T[],
  total: number,
  { limit, page }: Page,
) {
  return { [key]: items, total, page, limit, hasMore: page * limit < total } as {
    [P in K]: T[];
  } & { total: number; page: number; limit: number; hasMore: boolean };
}

/** The paging fields of an answer, for the OpenAPI document. */
const pageFields = {
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  hasMore: z.boolean(),
};

/**
 * The schema of a paged answer, `{<key>: item[], total, page, limit, hasMore}`, named `name` in the
 * OpenAPI document: the one shape of every paged route (with `pageQuery` in, `paged` out).
 */
export function pageOf<K extends string, T extends z.ZodType>(name: string, key: K, item: T) {
  return z
    .object({ [key]: z.array(item), ...pageFields } as {
      [P in K]: z.ZodArray<T>;
    } & typeof pageFields)
    .openapi(name);
}
