/**
 * `POST /profile/upload-avatar` (multipart `file`) and `GET /avatars/{user_id}/{etag}`, which serves
 * the image to `<img>` tags (no bearer token there; the URL names the SHA-256 of the bytes, so it can be
 * cached for a year and a new upload gets a new URL).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';

import type { Deps } from '../../deps';
import type { AuthEnv } from '../../http/auth';
import { BEARER, createRouter, errorResponses, json, PUBLIC } from '../../http/openapi';
import { publicUser, UserResponse } from '../schemas';
import { createAvatarService } from './service';

export const AVATAR_UPLOAD_PATH = '/profile/upload-avatar';

const AvatarUpload = z
  .strictObject({
    file: z.file('Expected a file').openapi({
      type: 'string',
      format: 'binary',
      description: 'A PNG, JPEG, WebP or GIF image under 5 MB (recognised by its bytes)',
    }),
  })
  .openapi('AvatarUpload');

const AvatarParams = z.object({
  user_id: z.uuid().openapi({ param: { name: 'user_id', in: 'path' } }),
  etag: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'Expected a SHA-256 in hex')
    .openapi({ param: { name: 'etag', in: 'path' } }),
});

const YEAR = 365 * 24 * 3600;

export function avatarRoutes(deps: Deps, apiPrefix: string, auth: MiddlewareHandler<AuthEnv>) {
  const app = createRouter<AuthEnv>();
  const avatars = createAvatarService(deps, apiPrefix);

  app.openapi(
    createRoute({
      method: 'post',
      path: AVATAR_UPLOAD_PATH,
      summary: 'Upload a profile picture',
      description:
        'Multipart field `file`: a PNG, JPEG, WebP or GIF image (checked by its bytes), under 5 MB. ' +
        "The answer's `profile.avatar_url` is a path under /api/v1/.",
      security: BEARER,
      middleware: [auth] as const,
      request: {
        body: {
          required: true,
          content: { 'multipart/form-data': { schema: AvatarUpload } },
        },
      },
      responses: {
        200: json(UserResponse, 'The updated user'),
        ...errorResponses(401, 413, 415, 422, 503),
      },
    }),
    async (c) => {
      const { file } = c.req.valid('form');
      const user = await avatars.store(c.var.auth.user.id, file);
      return c.json({ user: publicUser(user) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/avatars/{user_id}/{etag}',
      security: PUBLIC,
      summary: 'A profile picture',
      description: 'Public, immutable: a new upload gets a new URL.',
      request: { params: AvatarParams },
      responses: {
        200: {
          description: 'The image',
          content: {
            'image/png': { schema: z.string().openapi({ format: 'binary' }) },
            'image/jpeg': { schema: z.string().openapi({ format: 'binary' }) },
            'image/webp': { schema: z.string().openapi({ format: 'binary' }) },
            'image/gif': { schema: z.string().openapi({ format: 'binary' }) },
          },
        },
        304: { description: 'Not modified' },
        ...errorResponses(404, 422),
      },
    }),
    async (c) => {
      const { user_id, etag } = c.req.valid('param');
      const avatar = await avatars.find(user_id, etag);
      if (!avatar) return c.json({ detail: 'Not Found' }, 404);
      const headers = {
        ETag: `"${avatar.etag}"`,
        'Cache-Control': `public, max-age=${YEAR}, immutable`,
        'Content-Disposition': 'inline',
        // nosniff and `default-src 'none'` come with every API answer (http/security.ts).
        'Cross-Origin-Resource-Policy': 'cross-origin',
      };
      if (c.req.header('if-none-match')?.includes(`"${avatar.etag}"`)) {
        return c.body(null, 304, headers);
      }
      return c.body(new Uint8Array(avatar.bytes), 200, {
        ...headers,
        'Content-Type': avatar.contentType,
        'Content-Length': String(avatar.bytes.length),
      });
    },
  );

  return app;
}
