import type { CallOptions, MessageResponse } from '../wire';

/** `profile` of the user object. `avatar_url` is absolute once it has passed the HTTP adapter. */
export type UserProfile = {
  display_name: string;
  bio: string;
  avatar_url: string | null;
};

/** The user object of API.md, field for field. */
export type User = {
  id: string;
  email: string;
  display_name: string;
  profile: UserProfile;
  bio: string;
  is_google: boolean;
  wallet_address: string | null;
  /** ISO time; empty, or equal to `created_at`, for a new user. */
  last_login: string | null;
  created_at: string;
  onboarding_completed: boolean;
  /** 'free' when the server sends none. */
  subscription_type: string;
  /** 'free' when the server sends none. */
  tier: string;
};

/** POST /register. The app always sends both agreements as true. */
export type RegisterRequest = {
  email: string;
  password: string;
  display_name: string;
  agreed_to_terms: boolean;
  agreed_to_privacy: boolean;
};

/** 201 of POST /register. */
export type RegisterResponse = {
  message: string;
  user: User;
};

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

/** POST /refresh and, optionally, POST /logout. */
export type RefreshRequest = {
  refresh_token: string;
};

/** A signed-in answer: login, verify-email and wallet sign-in. */
export type AuthResponse = TokenResponse & {
  user: User;
};

/** Answers that carry only the user: GET /me, PUT /profile, the avatar upload, onboarding. */
export type UserResponse = {
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
  /** Answers the same whether or not the address exists. */
  resendVerification(body: EmailRequest, options?: CallOptions): Promise<MessageResponse>;
  /** Answers the same whether or not the address exists. */
  requestPasswordReset(body: EmailRequest, options?: CallOptions): Promise<MessageResponse>;
  /** Sets the new password with the emailed single-use token. */
  confirmPasswordReset(
    body: ConfirmPasswordResetRequest,
    options?: CallOptions,
  ): Promise<MessageResponse>;
  /** Marks onboarding done (and awards its points once). */
  completeOnboarding(options?: CallOptions): Promise<UserResponse>;
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
  /** Where to send the browser for Google sign-in (a full-page redirect, not a fetch). */
  googleLoginUrl(): string;
  /** The message to sign for wallet sign-in. */
  web3Nonce(body: Web3NonceRequest, options?: CallOptions): Promise<Web3NonceResponse>;
  /** Signs in with the signed message; 401 for a bad signature or a reused or expired nonce. */
  web3Authenticate(body: Web3AuthenticateRequest, options?: CallOptions): Promise<AuthResponse>;
}
