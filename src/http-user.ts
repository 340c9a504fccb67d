/**
 * The user as every adapter hands it on, once for the HTTP layer: auth's and settings' answers that
 * carry a user pass through `withNormalizedUser`.
 */
import type { User } from './wire';

/** Resolves to the answer with its `user` through `normalizeUser`. */
export function withNormalizedUser<T extends { user: User }>(
  answer: Promise<T>,
  baseURL: string,
): Promise<T> {
  return answer.then((body) => ({ ...body, user: normalizeUser(body.user, baseURL) }));
}

/**
 * The user as the components want it: a relative avatar path prefixed with the API host (spec
 * section 3), `interests` an empty list when a server sends none, `subscription_type` falling back to `subscription`, then 'free', and `tier` to 'free'.
 */
export function normalizeUser(user: User, baseURL: string): User {
  const legacy = user as User & { subscription?: string };
  return {
    ...user,
    interests: user.interests ?? [],
    subscription_type: user.subscription_type || legacy.subscription || 'free',
    tier: user.tier || 'free',
    profile: {
      ...user.profile,
      avatar_url: resolveAvatarUrl(user.profile?.avatar_url ?? null, baseURL),
    },
  };
}

/** An avatar URL made absolute: a relative path is prefixed with `baseURL`; a URL is kept as is. */
export function resolveAvatarUrl(url: string | null, baseURL: string): string | null {
  if (!url) return null;
  if (/^[a-z][a-z\d+.-]*:/i.test(url) || url.startsWith('//')) return url;
  return `${trimSlash(baseURL)}/${url.replace(/^\/+/, '')}`;
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
