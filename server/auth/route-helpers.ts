/** Small pieces the auth route files share. */
import type { z } from '@hono/zod-openapi';
import { publicUser } from './schemas';
import type { SignedIn } from './service';

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

export const body = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

/** A sign-in answer: API.md's `{access_token, token_type, user}` with the refresh token beside it. */
export function signedIn(result: SignedIn) {
  return {
    access_token: result.accessToken,
    token_type: 'bearer' as const,
    expires_in: result.expiresIn,
    refresh_token: result.refreshToken,
    user: publicUser(result.user),
  };
}
