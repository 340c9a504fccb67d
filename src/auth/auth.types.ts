/*
 * Auth in types: what each of its machines holds (context), hears (events) and starts from (input),
 * one section a machine, in the order of its sub-folders. The wire shapes stay in `auth.adapter.ts`,
 * the notices the host carries out in `auth.notices.ts`.
 */
import type { Subject } from '../lib/limits';
import type { Account, AccountSwitchEvent, SessionUpdateEvent } from './account-switch';
import type { AuthResponse, User, UserResponse } from './auth.adapter';
import type { OAUTH_PARAMS } from './oauth-callback/oauth-callback.params';

// The session (session/).

/** Where the access token is kept between visits: `localStorage` in a browser. */
export type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export type SessionContext = {
  token: string | null;
  /**
   * The rotating refresh token (single use: each refresh answers the next one), kept in storage
   * beside the access token; null when the sign-in brought none. Only it renews the session.
   */
  refreshToken: string | null;
  /** When to refresh the token (ms since the epoch), or null when its lifetime is unknown. */
  refreshAt: number | null;
  user: User | null;
  /** Raised by a TRIAL_EXPIRED error; the host shows a dismissible banner (nothing is blocked). */
  trialExpired: boolean;
  /** Why the last sign-in failed to load the user. */
  error: unknown;
};

export type SessionEvent =
  /**
   * A token from a sign-in (email, Google, wallet, verification link), with its refresh token when
   * the answer carried one: store them, fetch the user.
   */
  | { type: 'auth.login'; token: string; refreshToken?: string | null | undefined }
  | { type: 'auth.signOut' }
  /** Any call answered 401: the token is no good any more. */
  | { type: 'auth.unauthorized' }
  | { type: 'auth.trialExpired' }
  | { type: 'trial.dismiss' }
  /** A call answered with a fresher user (profile saved, onboarding completed). */
  | { type: 'user.update'; user: User };

// Sign-in and sign-up by email (sign-in/).

export type AuthMode = 'signIn' | 'signUp';

/** The email form's fields, sent with `form.submit`. */
export type SignInFields = { name: string; email: string; password: string };

export type SignUpField = keyof SignInFields;

export type SignInContext = {
  mode: AuthMode;
  /** The sign-up validation errors of section 5, every field's at once. */
  fieldErrors: Partial<Record<SignUpField, string>>;
  /** The address of a sign-in refused as unverified: the form offers to resend its link. */
  unverifiedEmail: string | null;
  /** The address of the sign-in under way. */
  attemptedEmail: string;
  /** The server's answer to that resend (sent, or when another can go), or its failure. */
  resendNote: string | null;
  /** The forgot-password form's error, shown under its email field. */
  resetError: string | null;
  /** The token of a successful login, between the login and the session taking it. */
  token: string | null;
  /** The refresh token that came with it, handed to the session beside the access token. */
  refreshToken: string | null;
  /** Opened as /login or /register: straight to the email form. */
  direct: boolean;
};

export type SignInEvent =
  | { type: 'choice.email' }
  | { type: 'choice.google' }
  | { type: 'choice.back' }
  | { type: 'mode.toggle' }
  | { type: 'form.submit'; fields: SignInFields }
  | { type: 'forgot.open' }
  | { type: 'forgot.submit'; email: string }
  | { type: 'forgot.back' }
  /** The browser refused to leave for Google. */
  | { type: 'google.failed' }
  /** Send the verification link again to the address a sign-in was refused for. */
  | { type: 'verify.resend' };

export type SignInInput = { mode?: AuthMode | undefined } | undefined;

// Wallet sign-in (wallet-sign-in/).

export type WalletAuthContext = {
  /** The address the session is bound to: the user's registered one, or the one that signed in. */
  registeredAddress: string | null;
  /** The wallet's current account. */
  account: string | null;
  /** The EIP-4361 message from the server, then its signature, then the token they bought. */
  message: string | null;
  signature: string | null;
  token: string | null;
  /** The refresh token that came with it, handed to the session beside the access token. */
  refreshToken: string | null;
  /** Why the last attempt failed. */
  error: string | null;
  /** Why a connected wallet counts as disconnected: it moved to another account. */
  warning: string | null;
};

export type WalletAuthEvent =
  | { type: 'wallet.connect' }
  | { type: 'wallet.accountsChanged'; accounts: string[] }
  | { type: 'wallet.chainChanged'; chainId: string };

export type WalletAuthInput = { registeredAddress?: string | null | undefined } | undefined;

// The return from Google (oauth-callback/).

export type OAuthParams = Partial<Record<(typeof OAUTH_PARAMS)[number], string | null>>;

export type OAuthCallbackContext = {
  /** The one-time code of the redirect. */
  code: string | null;
  /** The one-time value this browser kept when it started the sign-in (lib/sign-in-state.ts). */
  state: string | null;
  /** The name the provider gave, for the greeting while the user loads. */
  userName: string | null;
  /** Why the sign-in failed. */
  error: string | null;
  /** Who is signed in on this browser now (null: nobody). */
  current: Account | null;
  /** The session is still loading who is signed in: the page waits before deciding. */
  sessionPending: boolean;
  /** The exchanged sign-in, held until it is used (or dropped when the student stays). */
  incoming: AuthResponse | null;
};

export type OAuthCallbackInput = OAuthParams & {
  state?: string | null;
  /** Who is signed in now. @default nobody */
  current?: Account | null | undefined;
  /** True while the session still loads its user. @default false */
  sessionPending?: boolean | undefined;
};

export type OAuthCallbackEvent = SessionUpdateEvent | AccountSwitchEvent;

// The emailed verification link (verify-email/).

export type VerifyEmailInput = {
  /** The `email` query parameter: the address a link was sent to. */
  email?: string | null | undefined;
  /** The `token` query parameter of the emailed link. */
  token?: string | null | undefined;
  /** Who is signed in on this browser now. @default nobody */
  current?: Account | null | undefined;
  /** True while the session still loads its user. @default false */
  sessionPending?: boolean | undefined;
};

export type VerifyEmailContext = {
  email: string | null;
  token: string | null;
  /** The refresh token that came with it, handed to the session beside the access token. */
  refreshToken: string | null;
  /** The resend's failure, shown in red. */
  error: string | null;
  /** The resend's answer: sent, or when another mail can be asked for (the server's cooldown). */
  sentNote: string | null;
  /** Where to go once signed in: onboarding until it is completed. */
  next: string;
  /** Who is signed in on this browser now (null: nobody). */
  current: Account | null;
  /** The session is still loading who is signed in: a verified link waits before signing in. */
  sessionPending: boolean;
  /** The account the link verified. */
  verified: Account | null;
};

export type VerifyEmailEvent = { type: 'verify.resend' } | SessionUpdateEvent | AccountSwitchEvent;

// A new password from the emailed link (reset-password/).

export type ResetPasswordContext = {
  token: string | null;
  /** Why the last attempt was refused: a weak password, a missing link, or the server's words. */
  error: string | null;
};

export type ResetPasswordEvent = { type: 'reset.submit'; password: string };

// Onboarding (onboarding/).

export type OnboardingContext = {
  /** The subjects the student is interested in, in the order of `GOALS.subjects`. */
  subjects: Subject[];
  /** The answer of `completeOnboarding`, once it came. */
  result: UserResponse | null;
};

export type OnboardingEvent =
  | { type: 'onboarding.next' }
  | { type: 'onboarding.back' }
  | { type: 'subject.toggle'; subject: Subject }
  | { type: 'onboarding.complete' };

// The sign-in screen's typed tagline (tagline/).

export type TaglineInput = {
  text: string;
  /** The reader prefers reduced motion: the whole line shows at once. */
  reducedMotion?: boolean | undefined;
};
