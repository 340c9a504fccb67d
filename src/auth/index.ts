// The auth feature: sign-in, sign-up, Google and wallet sign-in, verification, password reset,
// onboarding, and the session the rest of the app reads.
export type { AuthProviders, LegalPage, LegalPageName, ResendResponse } from './auth.adapter';
export {
  type AuthHandle,
  AuthProvider,
  type AuthProviderProps,
  type AuthState,
  MissingAuthProviderError,
  useAuth,
} from './AuthProvider';
export { AUTH_TAGLINE, AuthScreen, type AuthScreenProps } from './AuthScreen';
export type { AuthNotice } from './notices';
export {
  OAUTH_PARAMS,
  oauthCallbackLogic,
  oauthCallbackMachine,
  type OAuthParams,
  readOAuthParams,
} from './oauth-callback.machine';
export { OAuthCallback, type OAuthCallbackProps, removeOAuthParams } from './OAuthCallback';
export { Onboarding, type OnboardingProps, type OnboardingResult } from './Onboarding';
export { type OnboardingEvent, onboardingLogic, onboardingMachine } from './onboarding.machine';
export {
  type ResetPasswordEvent,
  resetPasswordLogic,
  resetPasswordMachine,
} from './reset-password.machine';
export { ResetPassword, type ResetPasswordProps } from './ResetPassword';
export {
  browserStorage,
  isNewUser,
  memoryStorage,
  type SessionContext,
  type SessionEvent,
  sessionLogic,
  sessionMachine,
  type TokenStorage,
} from './session.machine';
export { signInErrorMessage } from './sign-in.errors';
export {
  type AuthMode,
  type SignInEvent,
  type SignInFields,
  signInLogic,
  signInMachine,
} from './sign-in.machine';
export {
  type VerifyEmailEvent,
  verifyEmailLogic,
  verifyEmailMachine,
} from './verify-email.machine';
export { VerifyEmail, type VerifyEmailProps } from './VerifyEmail';
export {
  type WalletAuthContext,
  type WalletAuthDeps,
  type WalletAuthEvent,
  walletAuthLogic,
  walletAuthMachine,
} from './wallet-auth.machine';
export {
  type Eip1193Provider,
  type Eip1193Request,
  injectedProvider,
  isUserRejection,
  WalletMissingError,
  type WalletSource,
} from './wallet-provider';
// The feature's own wordings (not the spec's), kept with every other message in `src/lib/`.
export { AUTH_MESSAGES } from '../lib/messages';
