/** The sign-in answer the auth route files share. */
import { publicUser } from './schemas';
import type { SignedIn } from './sessions';

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
