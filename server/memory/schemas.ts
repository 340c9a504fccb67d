/** The wire shapes of `/api/v1/vector` (zod, OpenAPI generated from them). */
import { z } from '@hono/zod-openapi';

import { jsonDepthCheck } from '../http/json-depth';
import {
  hasNoNul,
  isWellFormed,
  jsonHasNoNul,
  jsonIsWellFormed,
  NUL_MESSAGE,
  SURROGATE_MESSAGE,
} from '../http/text';

const MAX_METADATA_CHARS = 4000;

export const StoreBody = z
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

export const SearchBody = z
  .strictObject({
    query: z.string().trim().min(1).max(1000),
    limit: z.number().int().min(1).max(20).default(5),
  })
  .openapi('SearchUserDataRequest');

export const StoredUserData = z.object({ id: z.string() }).openapi('StoredUserData');

export const SearchResults = z
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
  .openapi('SearchUserDataResponse');
