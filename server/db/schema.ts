/**
 * The database schema. Migrations under ./migrations are generated from this file with
 * `npx drizzle-kit generate` and checked in; the server applies them on start.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
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
    /** Null only for an account that signs in with a wallet alone (answered as ""). */
    email: text('email'),
    /** argon2id; null for accounts that sign in only with Google or a wallet. */
    passwordHash: text('password_hash'),
    displayName: text('display_name').notNull(),
    bio: text('bio').notNull().default(''),
    /** The subjects picked at onboarding (math, science, history, english), in that order. */
    interests: text('interests')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
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
 * Fixed-window rate limits (goal writes per user, sign-up mails per client and per address): one
 * row a key, counted and checked in one statement, so it holds across server instances.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: at('window_start').notNull(),
  count: integer('count').notNull(),
});

/**
 * Every change of a user's points is a row; the balance is their sum. `award_key` makes one-time
 * awards (onboarding, the 10th message, a goal reaching 100 %) idempotent per user. `seq` is the
 * order rows were written in: the tie-break for rows stamped in the same millisecond.
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
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
  },
  (t) => [
    index('points_ledger_user_idx').on(t.userId, t.createdAt, t.seq),
    uniqueIndex('points_ledger_award_key').on(t.userId, t.awardKey),
  ],
);

/** PostgreSQL `bytea` as a Node Buffer (PGlite answers a Uint8Array; both are wrapped). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A user's avatar, in the database rather than on disk so that the server stays stateless and any
 * instance behind a load balancer can serve it. `etag` (SHA-256 of the bytes) is part of its URL.
 */
export const avatars = pgTable('avatars', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  etag: text('etag').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** Google sign-in in flight: the OAuth `state` (as a hash) and its PKCE verifier, single use. */
export const oauthStates = pgTable(
  'oauth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    codeVerifier: text('code_verifier').notNull(),
    /** SHA-256 of the one-time value the browser keeps in sessionStorage (auth/sign-in-code/). */
    clientStateHash: text('client_state_hash'),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('oauth_states_expires_idx').on(t.expiresAt)],
);

/** Sign-In with Ethereum nonces: bound to one address, single use, expiring. */
export const siweNonces = pgTable(
  'siwe_nonces',
  {
    nonce: text('nonce').primaryKey(),
    /** Lower-cased 0x address the message was issued for. */
    walletAddress: text('wallet_address').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('siwe_nonces_expires_idx').on(t.expiresAt)],
);

/**
 * Portal sign-in (token exchange): a student of a trusted portal, known by the portal's issuer and its
 * subject; never by email alone, so one address at two portals is two students.
 */
export const portalIdentities = pgTable(
  'portal_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the portal named, if any: kept for the record, never used to sign in or link. */
    email: text('email'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.issuer, t.subject] }),
    index('portal_identities_user_idx').on(t.userId),
  ],
);

/** Every portal assertion's `jti` once used, until the assertion would have expired anyway. */
export const portalAssertionIds = pgTable(
  'portal_assertion_ids',
  {
    issuer: text('issuer').notNull(),
    jti: text('jti').notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.issuer, t.jti] }),
    index('portal_assertion_ids_expires_idx').on(t.expiresAt),
  ],
);

// ---- Learning: tutor chat, learning memory, weekly goals, point conversions (issue 4) ----

/** PostgreSQL `tsvector`, only ever written by a generated column. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** A tutor conversation. `title` comes from the first user message until renamed. */
export const chatSessions = pgTable(
  'chat_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    threadId: uuid('thread_id').notNull().defaultRandom(),
    title: text('title').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    lastMessageAt: at('last_message_at').notNull().defaultNow(),
    messageCount: integer('message_count').notNull().default(0),
    archivedAt: at('archived_at'),
    /**
     * The session's messages not yet in its search chunks, in order, each `chr(1) ||
     * lower(content)`: the question and the reply store theirs here, and the search filer adds them
     * to the chunks after a quiet spell (server/chat/service.ts); a new session's title gets its
     * chunk then too. Null when none waits.
     */
    searchPending: text('search_pending').array(),
  },
  (t) => [
    index('chat_sessions_user_activity_idx').on(t.userId, t.lastMessageAt),
    index('chat_sessions_search_pending_idx')
      .on(t.userId)
      .where(sql`${t.searchPending} is not null`),
  ],
);

/** A stored message; a reply is stored only once it is complete. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => chatSessions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<'user' | 'assistant'>().notNull(),
    content: text('content').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('chat_messages_session_idx').on(t.sessionId, t.createdAt),
    index('chat_messages_user_role_idx').on(t.userId, t.role, t.createdAt),
  ],
);

/** A message the safety check flagged (the student's, or a reply replaced by the safe answer). */
export const safetyEvents = pgTable(
  'safety_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id').references(() => chatSessions.id, { onDelete: 'set null' }),
    source: text('source').$type<'local' | 'moderation'>().notNull(),
    direction: text('direction').$type<'student' | 'reply'>().notNull(),
    categories: text('categories').array().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('safety_events_user_idx').on(t.userId, t.createdAt)],
);

/** What a student studied, for the tutor to recall. `embedding` is set when a model is configured. */
export const learningMemories = pgTable(
  'learning_memories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    embedding: real('embedding').array(),
    embeddingModel: text('embedding_model'),
    tsv: tsvector('tsv')
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('english', "text")`),
    createdAt: at('created_at').notNull().defaultNow(),
    /** Stored by the tutor after a reply: the ones that give their place when the memory is full. */
    byTutor: boolean('by_tutor').notNull().default(false),
  },
  (t) => [
    index('learning_memories_user_idx').on(t.userId, t.createdAt),
    index('learning_memories_tsv_idx').using('gin', t.tsv),
  ],
);

/** A weekly goal; `week_start` is the Monday (UTC) of its week, `total_value` the progress logged. */
export const goals = pgTable(
  'goals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    goalType: text('goal_type').notNull(),
    targetValue: integer('target_value').notNull(),
    totalValue: integer('total_value').notNull().default(0),
    weekStart: at('week_start').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('goals_user_week_idx').on(t.userId, t.weekStart)],
);

export const goalProgress = pgTable(
  'goal_progress',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    goalId: uuid('goal_id')
      .notNull()
      .references(() => goals.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    value: integer('value').notNull(),
    minutes: integer('minutes'),
    topic: text('topic'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('goal_progress_goal_idx').on(t.goalId, t.createdAt),
    index('goal_progress_user_idx').on(t.userId, t.createdAt),
  ],
);

/** Milestones (25, 50, 75, 100) a goal reached: each once; `shown_at` once it was celebrated. */
export const goalMilestones = pgTable(
  'goal_milestones',
  {
    goalId: uuid('goal_id')
      .notNull()
      .references(() => goals.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    milestone: integer('milestone').notNull(),
    reachedAt: at('reached_at').notNull().defaultNow(),
    shownAt: at('shown_at'),
  },
  (t) => [
    primaryKey({ columns: [t.goalId, t.milestone] }),
    index('goal_milestones_user_idx').on(t.userId),
  ],
);

export type ConversionStatus = 'pending' | 'success' | 'failed';

/** A points-to-tokens conversion; its ledger rows carry `award_key` `conversion:<id>`. */
export const conversions = pgTable(
  'conversions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    points: integer('points').notNull(),
    tokens: integer('tokens').notNull(),
    status: text('status').$type<ConversionStatus>().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('conversions_user_idx').on(t.userId, t.createdAt)],
);

// ---- end of learning ----

// ---- red team round 3 ----

/**
 * One-time sign-in codes (auth/sign-in-code/): a redirect carries a code, never a token; the page
 * exchanges it once, within a minute, with the one-time value the browser that started the sign-in
 * kept (stored here as SHA-256, like the code).
 */
export const signInCodes = pgTable(
  'sign_in_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bindingHash: text('binding_hash').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    index('sign_in_codes_user_idx').on(t.userId),
    index('sign_in_codes_expires_idx').on(t.expiresAt),
  ],
);

// ---- LTI 1.3: platforms, launches, courses, grades (issue 23) ----

/** Platforms registered by LTI Dynamic Registration (those of AYAH_LTI_PLATFORMS live in the config). */
export const ltiPlatforms = pgTable(
  'lti_platforms',
  {
    id: text('id').primaryKey(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    deploymentIds: jsonb('deployment_ids').$type<string[]>().notNull(),
    authLoginUrl: text('auth_login_url').notNull(),
    authTokenUrl: text('auth_token_url').notNull(),
    jwksUrl: text('jwks_url').notNull(),
    /** The `aud` of the token request's client assertion (Brightspace names its own). */
    authAudience: text('auth_audience'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('lti_platforms_issuer_client_idx').on(t.issuer, t.clientId)],
);

/** An OIDC login in flight: its state and nonce, used once by the launch that follows. */
export const ltiLoginStates = pgTable(
  'lti_login_states',
  {
    state: text('state').primaryKey(),
    nonce: text('nonce').notNull(),
    platformId: text('platform_id').notNull(),
    /** 'cookie' (state bound by a cookie) or 'platform' (kept in the platform's storage frame). */
    storage: text('storage').notNull(),
    usedAt: at('used_at'),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('lti_login_states_expires_idx').on(t.expiresAt)],
);

/** A student or teacher of a platform: `(platform, sub)`, never matched by email. */
export const ltiUsers = pgTable(
  'lti_users',
  {
    platformId: text('platform_id').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.platformId, t.subject] }),
    index('lti_users_user_idx').on(t.userId),
  ],
);

/** A course (`context`) as its last launch described it, with its roster service claim. */
export const ltiContexts = pgTable('lti_contexts', {
  /** `${issuer}|${client_id}|${context_id}`. */
  key: text('key').primaryKey(),
  platformId: text('platform_id').notNull(),
  title: text('title'),
  /** The `namesroleservice` claim: `{context_memberships_url, service_versions}`. */
  nrps: jsonb('nrps').$type<{ context_memberships_url: string; service_versions: string[] }>(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** Who launched into which course, as what. */
export const ltiMemberships = pgTable(
  'lti_memberships',
  {
    contextKey: text('context_key').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.contextKey, t.userId] })],
);

/** A one-time code a launched page trades for its session, or a deep-linking request in progress. */
export const ltiHandoffs = pgTable(
  'lti_handoffs',
  {
    codeHash: text('code_hash').primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('lti_handoffs_expires_idx').on(t.expiresAt)],
);

/** Where a launched student's weekly goal progress is graded: a resource link's line item. */
export const ltiGradeLinks = pgTable(
  'lti_grade_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platformId: text('platform_id').notNull(),
    subject: text('subject').notNull(),
    resourceLinkId: text('resource_link_id').notNull(),
    lineItem: text('line_item'),
    lineItems: text('line_items'),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('lti_grade_links_user_link_idx').on(t.userId, t.platformId, t.resourceLinkId),
  ],
);

/** Scores waiting to reach a platform's gradebook: the newest per grade link, retried with backoff. */
export const ltiScoreOutbox = pgTable(
  'lti_score_outbox',
  {
    gradeLinkId: uuid('grade_link_id')
      .primaryKey()
      .references(() => ltiGradeLinks.id, { onDelete: 'cascade' }),
    score: jsonb('score').$type<Record<string, unknown>>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    lastError: text('last_error'),
  },
  (t) => [index('lti_score_outbox_due_idx').on(t.nextAttemptAt)],
);

// ---- end of LTI ----

export type User = typeof users.$inferSelect;

// ---- Classes, the teacher's view and safety alerts (issue 24) ----

export type ClassSource = 'lti' | 'portal';
export type ClassRole = 'learner' | 'instructor' | 'administrator';

/** A class: an LTI course (`context`) or a portal's `class_id`, known by its source and that key. */
export const classes = pgTable(
  'classes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    source: text('source').$type<ClassSource>().notNull(),
    externalKey: text('external_key').notNull(),
    name: text('name').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('classes_source_key').on(t.source, t.externalKey)],
);

/** Who is in a class and as what; set only by a launch or a portal's assertion, never by a request. */
export const classMembers = pgTable(
  'class_members',
  {
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<ClassRole>().notNull(),
    joinedAt: at('joined_at').notNull().defaultNow(),
    lastLaunchAt: at('last_launch_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.classId, t.userId] }),
    index('class_members_user_idx').on(t.userId, t.role),
  ],
);

export type AlertStatus = 'open' | 'acknowledged' | 'resolved' | 'false_positive';
export type AlertSeverity = 'high' | 'medium' | 'low';

/**
 * A safeguarding record: a student's flagged messages in one conversation, for one class. It outlives
 * the student's account (`student_id` turns null); the text lives in `safety_alert_messages`, which
 * goes with the account.
 */
export const safetyAlerts = pgTable(
  'safety_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id').references(() => users.id, { onDelete: 'set null' }),
    sessionId: uuid('session_id'),
    category: text('category').notNull(),
    categories: text('categories').array().notNull(),
    severity: text('severity').$type<AlertSeverity>().notNull(),
    status: text('status').$type<AlertStatus>().notNull().default('open'),
    flags: integer('flags').notNull().default(1),
    note: text('note'),
    createdAt: at('created_at').notNull().defaultNow(),
    lastFlagAt: at('last_flag_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('safety_alerts_class_idx').on(t.classId, t.createdAt),
    index('safety_alerts_student_idx').on(t.studentId, t.lastFlagAt),
  ],
);

/** A flagged message and Ayah's answer to it: removed with the student's account. */
export const safetyAlertMessages = pgTable(
  'safety_alert_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => safetyAlerts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    answer: text('answer').notNull(),
    categories: text('categories').array().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('safety_alert_messages_alert_idx').on(t.alertId, t.createdAt)],
);

/** Every view of and action on an alert, with who (kept by name if the account goes) and when. */
export const safetyAlertEvents = pgTable(
  'safety_alert_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => safetyAlerts.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    action: text('action').notNull(),
    note: text('note'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('safety_alert_events_alert_idx').on(t.alertId, t.createdAt),
    index('safety_alert_events_actor_idx').on(t.actorId, t.action),
  ],
);

export type DeliveryStatus = 'pending' | 'sent' | 'failed';

/** The alert mails' outbox: one row a recipient, delivered and retried from the table. */
export const safetyAlertDeliveries = pgTable(
  'safety_alert_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => safetyAlerts.id, { onDelete: 'cascade' }),
    recipient: text('recipient').notNull(),
    status: text('status').$type<DeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due; null once sent or given up. */
    nextAttemptAt: at('next_attempt_at'),
    lastError: text('last_error'),
    sentAt: at('sent_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('safety_alert_deliveries_recipient').on(t.alertId, t.recipient),
    index('safety_alert_deliveries_due_idx').on(t.nextAttemptAt),
  ],
);

// ---- Chat search: bounded chunks per session, not one growing document (issue 22 #3) ----

/**
 * What chat search matches, per session: chunk 0 is `lower(title)`; chunks 1… hold
 * `chr(1) || lower(content)` for each message in order, a message joining the last chunk while it
 * stays under CHUNK_CHARS (server/chat/service.ts), so that a write rewrites one small chunk. The
 * separator keeps a match inside one message.
 */
export const chatSearchChunks = pgTable(
  'chat_search_chunks',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => chatSessions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    text: text('text').notNull(),
    /** The distinct characters of `text`, for needles too short to have a trigram. */
    chars: text('chars')
      .array()
      .notNull()
      .generatedAlwaysAs(sql`ayah_distinct_chars("text")`),
  },
  (t) => [
    primaryKey({ name: 'chat_search_chunks_pk', columns: [t.sessionId, t.seq] }),
    // No pending lists: PGlite has no autovacuum to merge them, and every search would read them.
    index('chat_search_chunks_trgm_idx')
      .using('gin', sql`${t.text} gin_trgm_ops`)
      .with({ fastupdate: false }),
    index('chat_search_chunks_chars_idx').using('gin', t.chars).with({ fastupdate: false }),
  ],
);
