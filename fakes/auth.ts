/**
 * A fake AuthAdapter for machine tests, component tests and stories: every call resolves with a
 * plausible answer unless the test or story replaces it with `rejects(...)`, `never` or a deferred.
 * Each call is recorded in `calls`.
 */
import type { MessageResponse } from '../src/api';
import type { AuthAdapter, AuthResponse, User } from '../src/auth/auth.adapter';

export const TOKEN = 'tok-fake';
export const REFRESH = 'refresh-fake';

export const user: User = {
  id: 'user-1',
  email: 'ada@example.org',
  display_name: 'Ada',
  profile: { display_name: 'Ada', bio: '', avatar_url: null },
  bio: '',
  interests: [],
  is_google: false,
  wallet_address: null,
  last_login: '2026-01-02T08:00:00.000Z',
  created_at: '2026-01-01T08:00:00.000Z',
  onboarding_completed: true,
  subscription_type: 'free',
  tier: 'free',
};

/** A user who has just signed up: `last_login` equals `created_at`, onboarding pending. */
export const newUser: User = {
  ...user,
  id: 'user-2',
  last_login: user.created_at,
  onboarding_completed: false,
};

export function authResponse(overrides: Partial<User> = {}, token = TOKEN): AuthResponse {
  return {
    access_token: token,
    token_type: 'bearer',
    refresh_token: REFRESH,
    user: { ...user, ...overrides },
  };
}

export { apiError, deferred, never, rejects } from './calls';

/** An EIP-4361 (Sign-In with Ethereum) message like the server's, for `address`. */
export function siweMessage(
  address: string,
  { domain = 'localhost:5173', nonce = 'k3Jx9Q2mZp7Lw4Tn', chainId = 1 } = {},
): string {
  return [
    `${domain} wants you to sign in with your Ethereum account:`,
    address,
    '',
    'Sign in to Ayah, your AI learning coach.',
    '',
    `URI: http://${domain}`,
    'Version: 1',
    `Chain ID: ${chainId}`,
    `Nonce: ${nonce}`,
    'Issued At: 2026-01-02T08:00:00.000Z',
    'Expiration Time: 2026-01-02T08:10:00.000Z',
  ].join('\n');
}

export type AuthCall = { method: keyof AuthAdapter; body: unknown };

export type FakeAuthAdapter = AuthAdapter & { calls: AuthCall[] };

const WITHOUT_BODY = new Set(['me', 'completeOnboarding', 'googleLoginUrl']);

const ok = (message: string): MessageResponse => ({ message });

/** A fake AuthAdapter; `overrides` replace single calls. */
export function fakeAuthAdapter(overrides: Partial<AuthAdapter> = {}): FakeAuthAdapter {
  const base: AuthAdapter = {
    register: async (body) => ({
      message: 'Registration successful. Please check your email to verify your account.',
      user: { ...newUser, email: body.email, display_name: body.display_name },
    }),
    login: async () => authResponse(),
    me: async () => ({ user }),
    verifyEmail: async () => authResponse({ onboarding_completed: false }),
    resendVerification: async () => ok('A new verification email has been sent.'),
    requestPasswordReset: async () => ok('A password reset email has been sent.'),
    confirmPasswordReset: async () => ok('Password has been reset successfully.'),
    completeOnboarding: async () => ({ user: { ...user, onboarding_completed: true } }),
    refresh: async () => ({ access_token: TOKEN, token_type: 'bearer', refresh_token: REFRESH }),
    logout: async () => ok('Signed out'),
    googleLoginUrl: () => 'https://api.example.org/api/v1/auth/google/login',
    web3Nonce: async ({ wallet_address }) => ({ message: siweMessage(wallet_address) }),
    web3Authenticate: async ({ wallet_address }) => authResponse({ wallet_address }),
  };
  const calls: AuthCall[] = [];
  const adapter = { ...base, ...overrides };
  const recorded = Object.fromEntries(
    Object.entries(adapter).map(([method, call]) => [
      method,
      (...args: unknown[]) => {
        calls.push({
          method: method as keyof AuthAdapter,
          body: WITHOUT_BODY.has(method) ? undefined : args[0],
        });
        return (call as (...rest: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as AuthAdapter;
  return Object.assign(recorded, { calls });
}
