/**
 * Access tokens for the platform's services (AGS, NRPS): OAuth 2 client credentials with a JWT client
 * assertion signed by the tool's key (RFC 7523; 1EdTech Security Framework), cached per platform and
 * scope set until a little before they expire. Every call names itself (`User-Agent`, Canvas needs it).
 */
import type { LtiPlatform, LtiToolKey } from './config';
import { signAsTool } from './keys';

export const USER_AGENT = 'Ayah-LTI/1.0 (+https://github.com/ayah-coach)';
const TIMEOUT_MS = 10_000;

export class PlatformCallError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export type TokenSource = ReturnType<typeof createTokenSource>;

export function createTokenSource(keys: LtiToolKey[], now: () => Date) {
  const cache = new Map<string, { token: string; until: number }>();

  async function token(platform: LtiPlatform, scopes: string[]): Promise<string> {
    const scope = [...new Set(scopes)].sort().join(' ');
    const key = `${platform.id} ${scope}`;
    const cached = cache.get(key);
    if (cached && cached.until > now().getTime()) return cached.token;
    const assertion = await signAsTool(
      keys,
      { iss: platform.clientId, sub: platform.clientId, aud: platform.authAudience },
      now(),
    );
    const response = await fetch(platform.authTokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        'user-agent': USER_AGENT,
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
        scope,
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok)
      throw new PlatformCallError(`token endpoint answered ${response.status}`, response.status);
    const body = (await response.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string')
      throw new PlatformCallError('token endpoint gave no access_token');
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    cache.set(key, {
      token: body.access_token,
      until: now().getTime() + Math.max(0, lifetime - 30) * 1000,
    });
    return body.access_token;
  }

  return {
    token,
    /** A call to a platform service with its token; a 401 forgets the token (the next call asks anew). */
    async call(
      platform: LtiPlatform,
      scopes: string[],
      url: string,
      init: { method?: string; accept?: string; contentType?: string; body?: string } = {},
    ): Promise<Response> {
      const bearer = await token(platform, scopes);
      const response = await fetch(url, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${bearer}`,
          'user-agent': USER_AGENT,
          ...(init.accept && { accept: init.accept }),
          ...(init.contentType && { 'content-type': init.contentType }),
        },
        ...(init.body !== undefined && { body: init.body }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (response.status === 401) {
        const scope = [...new Set(scopes)].sort().join(' ');
        cache.delete(`${platform.id} ${scope}`);
      }
      return response;
    },
  };
}
