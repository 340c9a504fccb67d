// The auth feature: sign-in, sign-up, Google and wallet sign-in, verification, password reset,
// onboarding, and the session the rest of the app reads.
export type { AuthProviders, LegalPage, LegalPageName, ResendResponse } from './auth.adapter';
export type { AuthNotice } from './notices';
export {
  OAUTH_PARAMS,
  oauthCallbackLogic,
  oauthCallbackMachine,
  type OAuthParams,
  readOAuthParams,
} from './oauth-callback/oauth-callback.machine';
export {
  OAuthCallback,
  type OAuthCallbackProps,
  removeOAuthParams,
} from './oauth-callback/OAuthCallback';
export { Onboarding, type OnboardingProps, type OnboardingResult } from './onboarding/Onboarding';
export {
  type OnboardingEvent,
  onboardingLogic,
  onboardingMachine,
} from './onboarding/onboarding.machine';
export {
  type ResetPasswordEvent,
  resetPasswordLogic,
  resetPasswordMachine,
} from './reset-password/reset-password.machine';
export { ResetPassword, type ResetPasswordProps } from './reset-password/ResetPassword';
export {
  type AuthHandle,
  AuthProvider,
  type AuthProviderProps,
  type AuthState,
  MissingAuthProviderError,
  useAuth,
} from './session/AuthProvider';
export {
  browserStorage,
  isNewUser,
  memoryStorage,
  type SessionContext,
  type SessionEvent,
  sessionLogic,
  sessionMachine,
  type TokenStorage,
} from './session/session.machine';
export { AUTH_TAGLINE, AuthScreen, type AuthScreenProps } from './sign-in/AuthScreen';
export { signInErrorMessage } from './sign-in/sign-in.errors';
export {
  type AuthMode,
  type SignInEvent,
  type SignInFields,
  signInLogic,
  signInMachine,
} from './sign-in/sign-in.machine';
export {
  type VerifyEmailEvent,
  verifyEmailLogic,
  verifyEmailMachine,
} from './verify-email/verify-email.machine';
export { VerifyEmail, type VerifyEmailProps } from './verify-email/VerifyEmail';
export {
  type Eip1193Provider,
  type Eip1193Request,
  injectedProvider,
  isUserRejection,
  WalletMissingError,
  type WalletSource,
} from './wallet-sign-in/wallet-provider';
export {
  type WalletAuthContext,
  type WalletAuthDeps,
  type WalletAuthEvent,
  walletAuthLogic,
  walletAuthMachine,
} from './wallet-sign-in/wallet-sign-in.machine';
// The feature's own wordings (not the spec's), kept with every other message in `src/lib/`.
export { AUTH_MESSAGES } from '../lib/messages';
