/**
 * The database schema. Migrations under ./migrations are generated from this file with
 * `npx drizzle-kit generate` and checked in; the server applies them on start.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    /** argon2id; null for accounts that sign in only with Google or a wallet. */
    passwordHash: text('password_hash'),
    displayName: text('display_name').notNull(),
    bio: text('bio').notNull().default(''),
    avatarUrl: text('avatar_url'),
    isGoogle: boolean('is_google').notNull().default(false),
    googleSub: text('google_sub').unique(),
    /** Lower-cased 0x address. */
    walletAddress: text('wallet_address').unique(),
    emailVerifiedAt: at('email_verified_at'),
    /** Set on every sign-in, never on registration: a new user's is null. */
    lastLogin: at('last_login'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    onboardingCompleted: boolean('onboarding_completed').notNull().default(false),
    subscriptionType: text('subscription_type').notNull().default('free'),
    tier: text('tier').notNull().default('free'),
    /** Bumped to end every session of the user at once (password reset). */
    tokenVersion: integer('token_version').notNull().default(0),
    termsAcceptedAt: at('terms_accepted_at'),
    privacyAcceptedAt: at('privacy_accepted_at'),
  },
  (t) => [uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`)],
);

/** One sign-in: its refresh tokens form one chain, and its access tokens carry its id (`sid`). */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull().defaultNow(),
    /** Absolute end of the session, however often it is refreshed. */
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token, hex; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

export type OneTimePurpose = 'verify_email' | 'password_reset';

/** Email verification and password reset tokens: single use, expiring, stored only as a hash. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<OneTimePurpose>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('one_time_tokens_user_purpose_idx').on(t.userId, t.purpose)],
);

/** Failed sign-ins per key (`account:<email>` or `address:<ip>`). */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lastFailureAt: at('last_failure_at').notNull(),
  lockedUntil: at('locked_until'),
});

/**
 * Every change of a user's points is a row; the balance is their sum. `award_key` makes one-time
 * awards (onboarding, the 10th message, a goal reaching 100 %) idempotent per user.
 */
export const pointsLedger = pgTable(
  'points_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    type: text('type').$type<'earned' | 'converted' | 'deducted'>().notNull(),
    category: text('category').notNull(),
    description: text('description').notNull(),
    awardKey: text('award_key'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('points_ledger_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('points_ledger_award_key').on(t.userId, t.awardKey),
  ],
);

export type User = typeof users.$inferSelect;
