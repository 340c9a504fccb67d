/**
 * A school portal's sign-in, kept by `createHttpApi({ getPortalAssertion })` itself: the portal's
 * backend signs a short-lived assertion for its student; this exchanges it at `POST
 * /api/v1/auth/token-exchange` before the first call, keeps the access and refresh tokens in memory
 * (never in storage: the portal signs the student in again on every page), renews a refused access
 * token with the refresh token, and asks the portal for a new assertion when the session cannot be
 * renewed. Concurrent calls share one exchange or one renewal.
 */
import type { AuthResponse, TokenResponse } from './auth/auth.adapter';
import type { TokenExchangeRequest } from './auth/auth.adapter';
import { describeHttpError, networkError } from './lib/http-errors';

const AUTH = '/api/v1/auth';
const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';

export type PortalAssertionSource = () => string | Promise<string>;

export type PortalSession = {
  /** The access token to send, exchanging an assertion first when there is none yet. */
  token(): Promise<string>;
  /** Which sign-in the current token belongs to (goes up with every exchange or renewal). */
  readonly generation: number;
  /**
   * Renews the session after a call made with `generation`'s token was refused (401): the refresh
   * token first, a new assertion when that fails. A renewal someone else already did is reused.
   */
  renew(generation: number): Promise<string>;
};

export function createPortalSession(options: {
  baseURL: string;
  getPortalAssertion: PortalAssertionSource;
  fetch?: typeof globalThis.fetch | undefined;
}): PortalSession {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseURL.replace(/\/+$/, '');

  /** POSTs JSON to the auth API and answers its JSON; an error answer rejects with its ApiError. */
  async function $fetch<T>(path: string, { body }: { body: object }): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method: 'POST',
        credentials: 'omit',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw networkError(error);
    }
    const text = await response.text();
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {
      // Not JSON: the text itself.
    }
    if (response.status >= 400) throw describeHttpError(response.status, response.statusText, data);
    return data as T;
  }

  let access: string | null = null;
  let refresh: string | null = null;
  let generation = 0;
  let pending: Promise<string> | null = null;

  /** One exchange or renewal at a time; every caller meanwhile waits for the same one. */
  function once(work: () => Promise<void>): Promise<string> {
    pending ??= work()
      .then(() => {
        generation++;
        return access!;
      })
      .finally(() => {
        pending = null;
      });
    return pending;
  }

  async function exchange() {
    const body: TokenExchangeRequest = {
      subject_token: await options.getPortalAssertion(),
      subject_token_type: JWT_TOKEN_TYPE,
    };
    const answer = await $fetch<AuthResponse>(`${AUTH}/token-exchange`, { body });
    access = answer.access_token;
    refresh = answer.refresh_token ?? null;
  }

  async function renewOrExchange() {
    if (refresh) {
      try {
        const answer = await $fetch<TokenResponse>(`${AUTH}/refresh`, {
          body: { refresh_token: refresh },
        });
        access = answer.access_token;
        refresh = answer.refresh_token ?? null;
        return;
      } catch {
        // Used up, revoked or expired: the portal vouches for the student again.
      }
    }
    access = refresh = null;
    await exchange();
  }

  return {
    get generation() {
      return generation;
    },
    token() {
      if (pending) return pending;
      return access ? Promise.resolve(access) : once(exchange);
    },
    renew(seen: number) {
      if (pending) return pending;
      if (generation > seen && access) return Promise.resolve(access);
      return once(renewOrExchange);
    },
  };
}
