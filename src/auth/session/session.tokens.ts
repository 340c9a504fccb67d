/**
 * When the session refreshes its access token. The server's tokens are JWTs that live 30 minutes
 * (server/README.md, "Access and refresh tokens"); `POST /refresh {refresh_token}` answers a fresh one
 * for the same session and the next refresh token (rotation), so the client swaps them in well before
 * the old access token ends. The refresh token lasts as long as the session, so a tab that slept past
 * the access token's end renews with it instead of signing out.
 */

/** Where the refresh token is kept, beside the access token's `authToken`. */
export const REFRESH_TOKEN_KEY = 'authRefreshToken';

export const TOKEN_REFRESH = {
  /** Refresh once this share of the token's lifetime has passed. */
  lifetimeShare: 0.8,
  /** A stored token with no more than this left is refreshed at once. */
  minRemainingMs: 60_000,
  /** After a refresh that got no answer (network down, server error), try again this much later. */
  retryMs: 30_000,
} as const;

/** The claims the client reads from its own token: seconds since the epoch. */
export type TokenClaims = { exp?: number; iat?: number };

/**
 * The payload of a JWT, read without verifying it (it is the client's own token, and only its
 * times are read); null for anything that is not a JWT.
 */
export function readClaims(token: string): TokenClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof claims !== 'object' || claims === null) return null;
    const { exp, iat } = claims as Record<string, unknown>;
    return {
      ...(isTime(exp) && { exp }),
      ...(isTime(iat) && { iat }),
    };
  } catch {
    return null;
  }
}

/** How a token reached the session: just now from the server, or from storage. */
export type TokenOrigin =
  /** `expiresIn`: the server's `expires_in` (seconds), when the answer carried one. */
  { fresh: true; expiresIn?: number | undefined } | { fresh: false };

/**
 * When to refresh `token` (ms since the epoch; in the past means at once), or null when its lifetime
 * cannot be told (not a JWT, no `exp`, no `expires_in`). A token just received counts its lifetime
 * from `now`, so a device whose clock is wrong still refreshes in time; a stored one is judged by
 * its own `iat` and `exp`, and one with a minute or less left is refreshed at once.
 */
export function refreshAt(token: string, now: number, origin: TokenOrigin): number | null {
  const { lifetimeShare, minRemainingMs } = TOKEN_REFRESH;
  const claims = readClaims(token);
  const exp = claims?.exp === undefined ? null : claims.exp * 1000;
  const iat = claims?.iat === undefined ? null : claims.iat * 1000;

  if (origin.fresh) {
    const lifetime =
      origin.expiresIn !== undefined && origin.expiresIn > 0
        ? origin.expiresIn * 1000
        : exp !== null && iat !== null && exp > iat
          ? exp - iat
          : null;
    if (lifetime !== null) return now + lifetimeShare * lifetime;
  }
  if (exp === null) return null;
  if (exp - now <= minRemainingMs) return now;
  const issued = iat !== null && iat < exp ? iat : now;
  return issued + lifetimeShare * (exp - issued);
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
