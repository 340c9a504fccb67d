/**
 * The auth wire types (API.md): request schemas validate bodies and, with the response schemas, make
 * the OpenAPI document. Request objects are strict: an unknown field is a 422 (`extra_forbidden`).
 */
import { z } from '@hono/zod-openapi';
import { GOALS, type Subject } from 'ayah-coach/rules';

import type { User } from '../db/schema';
import { hasNoNul, NUL_MESSAGE } from '../http/text';
import { newPasswordProblem, PASSWORD_MAX_LENGTH } from './passwords';
import { JWT_TOKEN_TYPE } from './portal/service';
import type { SignedIn } from './sessions';

export const Email = z
  .string()
  .trim()
  .max(254)
  .email('Please enter a valid email address')
  .openapi({ example: 'student@example.com' });

/** A password being checked (sign-in, current password): any non-empty string up to the cap. */
const Password = z.string().min(1).max(PASSWORD_MAX_LENGTH);

/** A password being set: the five rules, not a common password, not over the cap. */
export const NewPassword = z
  .string()
  .max(PASSWORD_MAX_LENGTH)
  .superRefine((password, ctx) => {
    if (password.length > PASSWORD_MAX_LENGTH) return;
    const problem = newPasswordProblem(password);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi({
    description:
      'At least 8 characters with a lowercase and an uppercase letter, a number and a special character; not a common password.',
  });

const DisplayName = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(100)
  .refine(hasNoNul, NUL_MESSAGE);

const Bio = z.string().trim().max(500).refine(hasNoNul, NUL_MESSAGE);

const Token = z.string().min(1).max(512);

export const RegisterBody = z
  .strictObject({
    email: Email,
    password: NewPassword,
    display_name: DisplayName,
    agreed_to_terms: z.literal(true, { error: 'You must accept the terms of service' }),
    agreed_to_privacy: z.literal(true, { error: 'You must accept the privacy policy' }),
  })
  .openapi('RegisterRequest');

export const LoginBody = z
  .strictObject({ email: Email, password: Password })
  .openapi('LoginRequest');

/** OAuth2's password form (as FastAPI's OAuth2PasswordRequestForm): `username` is the email. */
export const LoginForm = z
  .strictObject({
    username: Email,
    password: Password,
    grant_type: z.literal('password').optional(),
    scope: z.string().max(1000).optional(),
    client_id: z.string().max(1000).optional(),
    client_secret: z.string().max(1000).optional(),
  })
  .openapi('LoginForm');

/** Subjects of interest: each at most once, kept in the order of GOALS.subjects. */
const Interests = z
  .array(z.enum(GOALS.subjects))
  .max(GOALS.subjects.length)
  .transform((picked) => GOALS.subjects.filter((subject) => picked.includes(subject)) as Subject[])
  .openapi({ description: 'Subjects of interest (math, science, history, english)' });

export const ProfileBody = z
  .strictObject({
    display_name: DisplayName.optional(),
    bio: Bio.optional(),
    interests: Interests.optional(),
  })
  .openapi('ProfileUpdate');

export const OnboardingBody = z
  .strictObject({ interests: Interests.optional() })
  .openapi('OnboardingComplete');

export const TokenBody = z.strictObject({ token: Token }).openapi('TokenRequest');
export const EmailBody = z.strictObject({ email: Email }).openapi('EmailRequest');

export const ResetConfirmBody = z
  .strictObject({ token: Token, new_password: NewPassword })
  .openapi('PasswordResetConfirm');

export const ChangePasswordBody = z
  .strictObject({ current_password: Password, new_password: NewPassword })
  .openapi('ChangePassword');

export const RefreshBody = z
  .strictObject({ refresh_token: Token.optional() })
  .openapi('RefreshRequest');

export const WalletAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'Expected a wallet address: 0x and 40 hexadecimal digits')
  .openapi({ example: '0x52908400098527886E0F7030069857D2E4169EE7' });

export const Web3NonceBody = z
  .strictObject({ wallet_address: WalletAddress })
  .openapi('Web3NonceRequest');

export const Web3NonceQuery = z.object({ wallet_address: WalletAddress });

export const Web3AuthenticateBody = z
  .strictObject({
    wallet_address: WalletAddress,
    signature: z.string().min(1).max(1000).openapi({ description: 'The signature, 0x and hex' }),
    message: z
      .string()
      .min(1)
      .max(2000)
      .openapi({ description: 'The message from POST /web3/nonce, exactly as signed' }),
  })
  .openapi('Web3AuthenticateRequest');

export const GoogleLoginQuery = z.object({
  client_state: z.string().min(16).max(256),
});

export const GoogleCallbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(512).optional(),
});

// ---- answers

export const UserSchema = z
  .object({
    id: z.string(),
    email: z
      .string()
      .openapi({ description: 'Empty for an account that signs in with a wallet only' }),
    display_name: z.string(),
    profile: z.object({
      display_name: z.string(),
      bio: z.string(),
      avatar_url: z.string().nullable(),
    }),
    bio: z.string(),
    interests: z.array(z.enum(GOALS.subjects)),
    is_google: z.boolean(),
    wallet_address: z.string().nullable(),
    last_login: z
      .string()
      .nullable()
      .openapi({ description: 'ISO 8601; null until the first sign-in' }),
    created_at: z.string(),
    onboarding_completed: z.boolean(),
    subscription_type: z.string(),
    tier: z.string(),
  })
  .openapi('User');

export type PublicUser = z.infer<typeof UserSchema>;

/** The user object of API.md, exactly. */
export function publicUser(user: User): PublicUser {
  return {
    id: user.id,
    email: user.email ?? '',
    display_name: user.displayName,
    profile: { display_name: user.displayName, bio: user.bio, avatar_url: user.avatarUrl },
    bio: user.bio,
    interests: user.interests.filter((subject): subject is Subject =>
      (GOALS.subjects as readonly string[]).includes(subject),
    ),
    is_google: user.isGoogle,
    wallet_address: user.walletAddress,
    last_login: user.lastLogin?.toISOString() ?? null,
    created_at: user.createdAt.toISOString(),
    onboarding_completed: user.onboardingCompleted,
    subscription_type: user.subscriptionType || 'free',
    tier: user.tier || 'free',
  };
}

export const UserResponse = z.object({ user: UserSchema }).openapi('UserResponse');
export const MessageResponse = z.object({ message: z.string() }).openapi('MessageResponse');
export const ResendResponse = z
  .object({
    message: z.string(),
    retry_after: z.number().int().min(0).openapi({
      description: 'Seconds until another verification mail can be asked for',
    }),
  })
  .openapi('ResendVerificationResponse');
export const Web3NonceResponse = z
  .object({
    message: z.string().openapi({
      description: 'An EIP-4361 message to sign; its nonce is single use and expires in 10 minutes',
    }),
  })
  .openapi('Web3NonceResponse');
export const RegisterResponse = z
  .object({ message: z.string(), user: UserSchema })
  .openapi('RegisterResponse');

const tokenFields = {
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int().openapi({ description: 'Seconds until the access token expires' }),
};

export const RefreshResponse = z
  .object({
    ...tokenFields,
    refresh_token: z
      .string()
      .openapi({ description: 'The next refresh token (single use; the one sent is used up)' }),
  })
  .openapi('RefreshResponse');

/** A sign-in answer: API.md's `{access_token, token_type, user}` with the refresh token beside it. */
export function signedIn(result: SignedIn) {
  return {
    access_token: result.accessToken,
    token_type: 'bearer' as const,
    expires_in: result.expiresIn,
    refresh_token: result.refreshToken,
    user: publicUser(result.user),
  };
}

export const AuthResponse = z
  .object({
    ...tokenFields,
    refresh_token: z.string().openapi({
      description:
        'Single use: POST /refresh exchanges it for a new access token and a new refresh token',
    }),
    user: UserSchema,
  })
  .openapi('AuthResponse');

/** `DELETE /account` (account/). */
export const DeleteAccountBody = z
  .strictObject({
    confirm: z.string().min(1).max(320).openapi({
      description:
        "The account's email; a Google account's display name; a wallet account's address",
    }),
    message: z
      .string()
      .max(4000)
      .optional()
      .openapi({ description: 'Wallet accounts: a fresh message from POST /web3/nonce' }),
    signature: z.string().max(1000).optional().openapi({ description: 'Its signature' }),
    password: z
      .string()
      .max(256)
      .optional()
      .openapi({ description: "Email accounts with a password: the account's password" }),
  })
  .openapi('DeleteAccountRequest');

/** `GET /export`: the whole account (account/). */
export const AccountExport = z
  .object({
    exported_at: z.string(),
    user: z.record(z.string(), z.unknown()),
    avatar: z.object({ content_type: z.string(), data_url: z.string() }).nullable(),
    chats: z.array(z.record(z.string(), z.unknown())),
    goals: z.array(z.record(z.string(), z.unknown())),
    points_ledger: z.array(z.record(z.string(), z.unknown())),
    conversions: z.array(z.record(z.string(), z.unknown())),
    learning_memory: z.array(z.record(z.string(), z.unknown())),
    portal_identities: z
      .array(
        z.object({
          issuer: z.string(),
          subject: z.string(),
          email: z.string().nullable(),
          created_at: z.string(),
        }),
      )
      .openapi({
        description: 'The school portals that sign this student in, and who they say it is',
      }),
    classes: z
      .array(z.record(z.string(), z.unknown()))
      .openapi({ description: "The student's classes and their role in each" }),
    safety_alerts: z.array(z.record(z.string(), z.unknown())).openapi({
      description:
        'Safety alerts about the student: category, status and their own flagged messages',
    }),
  })
  .openapi('AccountExport');

export type DeleteAccountInput = z.infer<typeof DeleteAccountBody>;

/** `GET /providers`. */
export const ProvidersResponse = z
  .object({
    email: z.boolean(),
    google: z.boolean().openapi({ description: 'False when Google sign-in is not configured' }),
    wallet: z.boolean(),
  })
  .openapi('AuthProviders');

/** `POST /sign-in-code` (sign-in-code/). */
export const SignInCodeBody = z
  .strictObject({
    code: z.string().min(1).max(256),
    state: z.string().min(1).max(256),
  })
  .openapi('SignInCodeRequest');

/** `POST /token-exchange` (portal/). */
export const TokenExchangeBody = z
  .strictObject({
    subject_token: z
      .string()
      .min(1)
      .max(16_384)
      .openapi({ description: "The portal's signed JWT for its student" }),
    subject_token_type: z.string().max(200).openapi({
      description: 'Always `urn:ietf:params:oauth:token-type:jwt`',
      example: JWT_TOKEN_TYPE,
    }),
    grant_type: z
      .literal('urn:ietf:params:oauth:grant-type:token-exchange')
      .optional()
      .openapi({ description: "RFC 8693's grant type; optional" }),
  })
  .openapi('TokenExchangeRequest');
