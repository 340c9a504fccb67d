// The auth feature: sign-in, sign-up, Google and wallet sign-in, verification, password reset,
// onboarding, and the session the rest of the app reads.
export {
  AuthProvider,
  MissingAuthProviderError,
  useAuth,
  type AuthHandle,
  type AuthProviderProps,
  type AuthState,
} from './AuthProvider';
export { AuthScreen, AUTH_TAGLINE, type AuthScreenProps } from './AuthScreen';
export { OAuthCallback, removeOAuthParams, type OAuthCallbackProps } from './OAuthCallback';
export { VerifyEmail, type VerifyEmailProps } from './VerifyEmail';
export { ResetPassword, type ResetPasswordProps } from './ResetPassword';
export { Onboarding, type OnboardingProps, type OnboardingResult } from './Onboarding';

export {
  browserStorage,
  isNewUser,
  memoryStorage,
  sessionLogic,
  sessionMachine,
  type SessionContext,
  type SessionEvent,
  type TokenStorage,
} from './session.machine';
export {
  signInLogic,
  signInMachine,
  type AuthMode,
  type SignInEvent,
  type SignInFields,
} from './sign-in.machine';
export { signInErrorMessage } from './sign-in.errors';
export {
  walletAuthLogic,
  walletAuthMachine,
  type WalletAuthContext,
  type WalletAuthDeps,
  type WalletAuthEvent,
} from './wallet-auth.machine';
export {
  injectedProvider,
  isUserRejection,
  WalletMissingError,
  type Eip1193Provider,
  type Eip1193Request,
  type WalletSource,
} from './wallet-provider';
export {
  verifyEmailLogic,
  verifyEmailMachine,
  type VerifyEmailEvent,
} from './verify-email.machine';
export {
  resetPasswordLogic,
  resetPasswordMachine,
  type ResetPasswordEvent,
} from './reset-password.machine';
export { onboardingLogic, onboardingMachine, type OnboardingEvent } from './onboarding.machine';
export {
  oauthCallbackLogic,
  oauthCallbackMachine,
  readOAuthParams,
  OAUTH_PARAMS,
  type OAuthParams,
} from './oauth-callback.machine';
export type { AuthNotice } from './notices';
export type { AuthProviders, LegalPage, LegalPageName, ResendResponse } from './auth.adapter';
// The feature's own wordings (not the spec's), kept with every other message in `src/lib/`.
export { AUTH_MESSAGES } from '../lib/messages';
