import type { Subject } from '../lib/limits';
import type { CallOptions, MessageResponse, User, UserResponse } from '../wire';

/** The user wire types, shared with settings through src/wire.ts. */
export type { User, UserProfile, UserResponse } from '../wire';

/** POST /register. The app always sends both agreements as true. */
export type RegisterRequest = {
  email: string;
  password: string;
  display_name: string;
  agreed_to_terms: true;
  agreed_to_privacy: true;
};

/** POST /onboarding/complete: the subjects picked in step 2, stored as the user's `interests`. */
export type CompleteOnboardingRequest = {
  interests: Subject[];
};

/** 201 of POST /register: `{message, user}`. */
export type RegisterResponse = MessageResponse & UserResponse;

/** POST /login. */
export type LoginRequest = {
  email: string;
  password: string;
};

/** A bearer token, as POST /refresh answers it. */
export type TokenResponse = {
  access_token: string;
  token_type: 'bearer';
  /** Seconds the access token lives (the reference server sends it; API.md does not name it). */
  expires_in?: number;
  /**
   * The refresh token (login, verify-email, wallet sign-in, and every refresh: it rotates). The
   * session keeps it beside the access token and renews only with it; a backend may send none.
   */
  refresh_token?: string;
};

/** POST /sign-in-code: the redirect's code and the one-time value the browser kept. */
export type SignInCodeRequest = {
  code: string;
  state: string;
};

/** POST /refresh and, optionally, POST /logout. */
export type RefreshRequest = {
  refresh_token: string;
};

/** A signed-in answer: login, verify-email and wallet sign-in. */
export type AuthResponse = TokenResponse & {
  user: User;
};

/** POST /verify-email. */
export type VerifyEmailRequest = {
  token: string;
};

/** POST /resend-verification and POST /password-reset. */
export type EmailRequest = {
  email: string;
};

/** GET /providers: which sign-in ways the server offers. */
export type AuthProviders = {
  email: boolean;
  google: boolean;
  wallet: boolean;
};

/** POST /resend-verification: `retry_after` seconds until another mail can be asked for. */
export type ResendResponse = MessageResponse & {
  retry_after?: number;
};

/** The pages a school can replace: GET /api/v1/legal/{name}. */
export type LegalPageName = 'terms' | 'privacy';

/** A terms or privacy page: its title and its markdown text. */
export type LegalPage = {
  title: string;
  markdown: string;
};

/** POST /password-reset/confirm. */
export type ConfirmPasswordResetRequest = {
  token: string;
  new_password: string;
};

/** POST /web3/nonce. */
export type Web3NonceRequest = {
  wallet_address: string;
};

/** The EIP-4361 message to sign; its nonce is single-use and expires in 10 minutes. */
export type Web3NonceResponse = {
  message: string;
};

/** POST /web3/authenticate. */
export type Web3AuthenticateRequest = {
  wallet_address: string;
  signature: string;
  message: string;
};

/**
 * `POST /token-exchange` (RFC 8693's shape): a school portal's signed assertion for an Ayah session.
 * `createHttpApi({ getPortalAssertion })` sends it; answered with an `AuthResponse`.
 */
export type TokenExchangeRequest = {
  subject_token: string;
  /** `urn:ietf:params:oauth:token-type:jwt` (any other is refused with 401, not 422). */
  subject_token_type: string;
  grant_type?: 'urn:ietf:params:oauth:grant-type:token-exchange';
};

/** Sign-up, sign-in (email, Google, wallet), verification and password reset: `/api/v1/auth`. */
export interface AuthAdapter {
  /** Creates an account and sends the verification mail. 409 when the email is taken. */
  register(body: RegisterRequest, options?: CallOptions): Promise<RegisterResponse>;
  /** 401 for a wrong pair; 403 with detail 'Email not verified' for an unverified account. */
  login(body: LoginRequest, options?: CallOptions): Promise<AuthResponse>;
  /** The signed-in user. */
  me(options?: CallOptions): Promise<UserResponse>;
  /** Signs the user in with the emailed token; 400 for a used, expired or unknown token. */
  verifyEmail(body: VerifyEmailRequest, options?: CallOptions): Promise<AuthResponse>;
  /** Answers the same whether or not the address exists, with the cooldown left in `retry_after`. */
  resendVerification(body: EmailRequest, options?: CallOptions): Promise<ResendResponse>;
  /** Answers the same whether or not the address exists. */
  requestPasswordReset(body: EmailRequest, options?: CallOptions): Promise<MessageResponse>;
  /** Sets the new password with the emailed single-use token. */
  confirmPasswordReset(
    body: ConfirmPasswordResetRequest,
    options?: CallOptions,
  ): Promise<MessageResponse>;
  /** Marks onboarding done (and awards its points once), keeping the subjects the student picked. */
  completeOnboarding(body: CompleteOnboardingRequest, options?: CallOptions): Promise<UserResponse>;
  /**
   * A fresh access token and the next refresh token for the session of `refresh_token` (single use;
   * 401 for a used, revoked or unknown one).
   */
  refresh(body: RefreshRequest, options?: CallOptions): Promise<TokenResponse>;
  /**
   * Signs the session out on the server (it and its refresh chain are revoked): by the refresh
   * token when given, else by the bearer access token.
   */
  logout(body: Partial<RefreshRequest>, options?: CallOptions): Promise<MessageResponse>;
  /**
   * Where to send the browser for Google sign-in (a full-page redirect, not a fetch); makes and keeps
   * the browser's one-time value (lib/sign-in-state.ts) the callback's code is bound to.
   */
  googleLoginUrl(): string;
  /** Exchanges a redirect's one-time code, with this browser's one-time value, for a session. */
  exchangeSignInCode(body: SignInCodeRequest, options?: CallOptions): Promise<AuthResponse>;
  /** The message to sign for wallet sign-in. */
  web3Nonce(body: Web3NonceRequest, options?: CallOptions): Promise<Web3NonceResponse>;
  /** Signs in with the signed message; 401 for a bad signature or a reused or expired nonce. */
  web3Authenticate(body: Web3AuthenticateRequest, options?: CallOptions): Promise<AuthResponse>;
  /**
   * Which sign-in ways the server offers. Optional: without it every way is shown.
   */
  providers?(options?: CallOptions): Promise<AuthProviders>;
  /** The school's terms or privacy notice. Optional: without it the pages say they are unavailable. */
  legalPage?(name: LegalPageName, options?: CallOptions): Promise<LegalPage>;
}
