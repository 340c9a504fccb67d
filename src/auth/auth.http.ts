import type { HttpClient } from '../http-client';
import { trimSlash, withNormalizedUser } from '../http-user';
import { beginRedirectSignIn } from '../lib/sign-in-state';
import type { AuthAdapter, User } from './auth.adapter';

const AUTH = '/api/v1/auth';

/** The auth adapter over HTTP. Every user it answers with has passed `normalizeUser`. */
export function authHttp(client: HttpClient): AuthAdapter {
  const withUser = <T extends { user: User }>(answer: Promise<T>) =>
    withNormalizedUser(answer, client.baseURL);

  return {
    register: (body, { signal } = {}) =>
      withUser(client.request(`${AUTH}/register`, { method: 'POST', body, signal })),
    login: (body, { signal } = {}) =>
      withUser(client.request(`${AUTH}/login`, { method: 'POST', body, signal })),
    me: ({ signal } = {}) => withUser(client.request(`${AUTH}/me`, { signal })),
    verifyEmail: (body, { signal } = {}) =>
      withUser(client.request(`${AUTH}/verify-email`, { method: 'POST', body, signal })),
    resendVerification: (body, { signal } = {}) =>
      client.request(`${AUTH}/resend-verification`, { method: 'POST', body, signal }),
    requestPasswordReset: (body, { signal } = {}) =>
      client.request(`${AUTH}/password-reset`, { method: 'POST', body, signal }),
    confirmPasswordReset: (body, { signal } = {}) =>
      client.request(`${AUTH}/password-reset/confirm`, { method: 'POST', body, signal }),
    completeOnboarding: (body, { signal } = {}) =>
      withUser(client.request(`${AUTH}/onboarding/complete`, { method: 'POST', body, signal })),
    refresh: (body, { signal } = {}) =>
      client.request(`${AUTH}/refresh`, { method: 'POST', body, signal }),
    logout: (body, { signal } = {}) =>
      client.request(`${AUTH}/logout`, { method: 'POST', body, signal }),
    googleLoginUrl: () =>
      `${trimSlash(client.baseURL)}${AUTH}/google/login?client_state=${beginRedirectSignIn()}`,
    exchangeSignInCode: (body, { signal } = {}) =>
      withUser(client.request(`${AUTH}/sign-in-code`, { method: 'POST', body, signal })),
    web3Nonce: (body, { signal } = {}) =>
      client.request(`${AUTH}/web3/nonce`, { method: 'POST', body, signal }),
    web3Authenticate: (body, { signal } = {}) =>
      withUser(client.request(`${AUTH}/web3/authenticate`, { method: 'POST', body, signal })),
    providers: ({ signal } = {}) => client.request(`${AUTH}/providers`, { signal }),
    legalPage: (name, { signal } = {}) =>
      client.request(`/api/v1/legal/${encodeURIComponent(name)}`, { signal }),
  };
}
