/**
 * Server configuration, read from environment variables only; every one has a safe default so that a
 * fresh clone runs with no setup at all (README lists them).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { TrustedIssuer } from './auth/portal/trusted-issuers';
import { parseTrustedIssuers } from './auth/portal/trusted-issuers';
import type { LtiConfig } from './lti/config';
import { loadLtiConfig } from './lti/config';

export interface ThrottleRule {
  /** Failures tolerated before the first lock. */
  threshold: number;
  /** The first lock; each further failure doubles it … */
  baseLockMs: number;
  /** … up to this cap, so nobody is ever locked out for longer. */
  maxLockMs: number;
}

export interface AuthSettings {
  /** Access tokens (JWT) live this long: 30 minutes. */
  accessTokenTtlSec: number;
  /** A sign-in session (the chain of refresh tokens) ends this long after sign-in at the latest. */
  sessionTtlMs: number;
  verifyTokenTtlMs: number;
  resetTokenTtlMs: number;
  /** At most one verification or reset mail per address and purpose in this window. */
  mailCooldownMs: number;
  throttle: {
    account: ThrottleRule;
    address: ThrottleRule;
    /** Failures older than this are forgotten. */
    forgetAfterMs: number;
  };
}

/** Google sign-in (OpenID Connect, authorization code + PKCE); null when not configured. */
export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  /** The OpenID provider; its discovery document names the endpoints and the signing keys. */
  issuer: string;
  /** Where the provider sends the browser back: this server's /api/v1/auth/google/callback. */
  redirectUri: string;
}

/** The maths tools' time (the spec's 1 s): a call that has not answered by then answers an error. */
export const TOOL_TIMEOUT_MS = 1000;

/** The tutor's model endpoint (any OpenAI-compatible API); none configured means the offline coach. */
export interface LlmSettings {
  /** e.g. `http://localhost:11434/v1` (Ollama) or `https://api.openai.com/v1`. */
  baseUrl: string | null;
  model: string | null;
  apiKey: string | null;
  /** Model for `/embeddings` (learning memory); without it memory is ranked by full-text search. */
  embeddingModel: string | null;
  /** An OpenAI-compatible `/moderations` URL; the local safety check runs either way. */
  moderationUrl: string | null;
  moderationModel: string | null;
  /** A reply may take this long in all … */
  timeoutMs: number;
  /** … and the model may stay silent this long between two pieces of text. */
  stallMs: number;
  /**
   * A maths tool call answers within this long of starting to run, else the model is told it took
   * too long (1 s: TOOL_TIMEOUT_MS). Not an environment setting: tests give the engines more time so
   * that a busy machine cannot turn a right answer into that fallback.
   */
  toolTimeoutMs: number;
}

export interface ChatSettings {
  /** Sends per user within `rateWindowMs` (counted in the database, so across instances). */
  rateLimit: number;
  rateWindowMs: number;
  /** Replies written at once by this process (AYAH_MAX_STREAMS); more wait (http/stream-gate.ts). */
  maxStreams: number;
  /** Sends that may wait for a reply slot (AYAH_STREAM_QUEUE); past that, 503 with Retry-After. */
  streamQueue: number;
  /** Replies one student may have being written at once, per server (429 beyond). */
  concurrentReplies: number;
  /** When waiting messages are added to the search chunks (server/chat/service.ts). */
  searchFiling: SearchFiling;
  /** How a reply's text is paced when this process writes many replies at once (chat/routes.ts). */
  pacing: ReplyPacing;
  /** When a streaming reply gives way to replies still waiting for their first words. */
  firstWords: FirstWordsFirst;
}

/**
 * While this process writes more than `above` replies at once, each reply's text goes out at most
 * every `everyMs`, what the model sent meanwhile in one write (its first words and its end at once).
 * 300 replies at once, unpaced, wrote 30,000 chunks in 2.6 s, a socket write each: a fifth of the
 * process's busy time (bench:class's profile, issue 26).
 */
export interface ReplyPacing {
  above: number;
  everyMs: number;
}

export const DEFAULT_REPLY_PACING: ReplyPacing = { above: 50, everyMs: 50 };

/**
 * While more than `above` replies of this process wait for their first words, a reply that has its
 * first words out reads no more of the model for up to `holdMs` (http/stream-gate.ts).
 */
export interface FirstWordsFirst {
  above: number;
  holdMs: number;
}

export const DEFAULT_FIRST_WORDS_FIRST: FirstWordsFirst = { above: 10, holdMs: 250 };

/**
 * Messages wait for the search chunks until no send has been stored for `quietMs`, or at the latest
 * until the first of them has waited `maxWaitMs` (a server that is never quiet files them anyway).
 */
export interface SearchFiling {
  quietMs: number;
  maxWaitMs: number;
}

export const DEFAULT_SEARCH_FILING: SearchFiling = { quietMs: 1_000, maxWaitMs: 15_000 };

/** At most `limit` uses within `windowMs` (a fixed window, counted in the database). */
export interface RateRule {
  limit: number;
  windowMs: number;
}

/** Rate limits on writes that cost the server or could farm points (counted across instances). */
export interface LimitSettings {
  /** Goal writes (create, update, delete, log progress) per student. */
  goalWrites: RateRule;
  /** Chat session writes (rename, archive, unarchive, delete) per student. */
  chatWrites: RateRule;
  /** Registrations, verification resends and reset requests per client address (each its own count). */
  accountMailPerAddress: RateRule;
  /** … and per email address. */
  accountMailPerEmail: RateRule;
  /** Wallet nonces and sign-ins per client address (each costs a signature check or a row). */
  walletPerAddress: RateRule;
  /** New accounts made by a first sign-in (wallet, portal, Google, LTI) per client address. */
  newAccountsPerAddress: RateRule;
  /** Learning-memory writes per student. */
  memoryWrites: RateRule;
  /** Learning memories one student may keep (oldest are kept; a write beyond is refused). */
  memoryMaxRows: number;
}

/**
 * One process's replies at once, and sends waiting for them: from `npm run bench:class` (README,
 * "A whole class at once"). A reply waiting for a place waits a whole reply of another (2.6 s in the
 * bench), so the default lets 300 students of a class stream at once: streaming, a reply costs the
 * process a read and a write a chunk (300 replies of 100 chunks in 2.6 s: about half a core), and
 * at 300 the gaps between chunks stayed the endpoint's own (issue 26); the work before the model,
 * not the stream, is what a class's burst queues on. Past that, more processes (README).
 */
export const DEFAULT_MAX_STREAMS = 300;
export const DEFAULT_STREAM_QUEUE = 1000;

/**
 * How long an idle kept-alive connection stays open. Node's own 5 s closed a student's connection
 * while they typed their next question, so the send paid a new connection (a TCP and a TLS handshake
 * on a school's network); and behind a proxy that keeps its connections to Ayah 60 s (nginx's
 * `keepalive_timeout`, a cloud load balancer's idle timeout), Node closing one just as the proxy
 * sent a POST on it made that send a 502. Longer than those proxies' 60 s, so that they close first.
 */
export const KEEP_ALIVE_MS = 65_000;

export const DEFAULT_LIMITS: LimitSettings = {
  goalWrites: { limit: 60, windowMs: 60_000 },
  chatWrites: { limit: 60, windowMs: 60_000 },
  accountMailPerAddress: { limit: 20, windowMs: 10 * 60_000 },
  accountMailPerEmail: { limit: 5, windowMs: 60 * 60_000 },
  walletPerAddress: { limit: 30, windowMs: 60_000 },
  // A school's class signs in for the first time from one address: room for a few classes an hour.
  newAccountsPerAddress: { limit: 100, windowMs: 60 * 60_000 },
  memoryWrites: { limit: 30, windowMs: 60_000 },
  memoryMaxRows: 2000,
};

export interface Config {
  port: number;
  /** Where users reach the app; links in mails are built from it, never from the Host header. */
  publicUrl: string;
  dataDir: string;
  /** A real PostgreSQL when set; otherwise the embedded PGlite under the data dir. */
  databaseUrl: string | null;
  /**
   * PostgreSQL connections this process's requests share (AYAH_PG_POOL, 10); one more listens for
   * sign-outs. With several processes, their sum stays under the server's `max_connections`.
   */
  databasePoolSize: number;
  jwtSecret: Uint8Array;
  smtpUrl: string | null;
  mailFrom: string;
  /** Origins besides the app's own that may call the API from a browser. */
  allowedOrigins: string[];
  /** Take the client address from the last X-Forwarded-For hop (only behind a trusted proxy). */
  trustProxy: boolean;
  /** AYAH_TRACE_SENDS=1: log where each tutor send's time goes (http/send-trace.ts). */
  traceSends: boolean;
  /** Largest accepted JSON or form body. */
  maxBodyBytes: number;
  /** Time to receive a request's headers and body (AYAH_REQUEST_TIMEOUT_MS; main.ts sets it). */
  requestTimeoutMs: number;
  /** Open connections one client address may hold (AYAH_CONNECTIONS_PER_ADDRESS; 0: no cap). */
  connectionsPerAddress: number;
  /** How long an idle kept-alive connection stays open (AYAH_KEEP_ALIVE_MS; main.ts sets it). */
  keepAliveMs: number;
  auth: AuthSettings;
  llm: LlmSettings;
  chat: ChatSettings;
  limits: LimitSettings;
  google: GoogleConfig | null;
  /** Sign-In with Ethereum: the chain id the message names (EIP-155; 1 is Ethereum mainnet). */
  siweChainId: number;
  /** School portals whose signed assertions `POST /auth/token-exchange` takes (AYAH_TRUSTED_ISSUERS). */
  trustedIssuers: TrustedIssuer[];
  /** LTI 1.3: registered platforms, the tool's keys (server/lti/config.ts). */
  lti: LtiConfig;
  classes: ClassSettings;
}

/** Classes and safety alerts (issue 24). */
export interface ClassSettings {
  /** AYAH_SAFETY_CONTACTS: the school's safeguarding leads, mailed every alert (lower-cased). */
  safetyContacts: string[];
  /** AYAH_TEACHERS_READ_CHATS=1: a class's teachers may read its students' chats (off by default). */
  teachersReadChats: boolean;
}

type Env = Record<string, string | undefined>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const DEFAULT_AUTH: AuthSettings = {
  accessTokenTtlSec: 30 * 60,
  sessionTtlMs: 30 * 24 * HOUR,
  verifyTokenTtlMs: 24 * HOUR,
  resetTokenTtlMs: HOUR,
  mailCooldownMs: MINUTE,
  throttle: {
    account: { threshold: 5, baseLockMs: 30_000, maxLockMs: 15 * MINUTE },
    address: { threshold: 20, baseLockMs: 30_000, maxLockMs: 15 * MINUTE },
    forgetAfterMs: HOUR,
  },
};

/** A count that may be 0 (off); anything unreadable is the default. */
function nonNegativeInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isInteger(n) && n >= 0 ? n : fallback;
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

/** AYAH_LLM_*: the model endpoint, or none (the offline coach). */
export function loadLlmSettings(env: Env): LlmSettings {
  const baseUrl = env.AYAH_LLM_BASE_URL ? url('AYAH_LLM_BASE_URL', env.AYAH_LLM_BASE_URL) : null;
  const model = env.AYAH_LLM_MODEL?.trim() || null;
  if (baseUrl && !model) throw new Error('AYAH_LLM_BASE_URL is set: set AYAH_LLM_MODEL too');
  return {
    baseUrl: model ? baseUrl : null,
    model: baseUrl ? model : null,
    apiKey: env.AYAH_LLM_API_KEY || null,
    embeddingModel: (baseUrl && env.AYAH_LLM_EMBEDDING_MODEL?.trim()) || null,
    moderationUrl: env.AYAH_MODERATION_URL
      ? url('AYAH_MODERATION_URL', env.AYAH_MODERATION_URL)
      : null,
    moderationModel: env.AYAH_MODERATION_MODEL?.trim() || null,
    timeoutMs: positiveInt('AYAH_LLM_TIMEOUT_MS', env.AYAH_LLM_TIMEOUT_MS, 120_000),
    stallMs: positiveInt('AYAH_LLM_STALL_MS', env.AYAH_LLM_STALL_MS, 30_000),
    toolTimeoutMs: TOOL_TIMEOUT_MS,
  };
}

function port(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 3000;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`PORT must be 0–65535, got "${value}"`);
  return n;
}

function url(name: string, value: string): string {
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
    return parsed.origin + parsed.pathname.replace(/\/+$/, '');
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${value}"`);
  }
}

function origins(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => new URL(url('AYAH_ALLOWED_ORIGINS', o)).origin);
}

/**
 * The JWT signing key: AYAH_JWT_SECRET when set (at least 32 characters), else 256 random bits generated
 * once and kept in `<data dir>/jwt-secret` (mode 0600) so that tokens survive restarts.
 */
function jwtSecret(value: string | undefined, dataDir: string): Uint8Array {
  if (value !== undefined && value !== '') {
    if (value.length < 32) throw new Error('AYAH_JWT_SECRET must be at least 32 characters long');
    return new TextEncoder().encode(value);
  }
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 43) return Buffer.from(stored, 'base64url');
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32);
  writeFileSync(file, secret.toString('base64url') + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

function google(env: Env, publicUrl: string): GoogleConfig | null {
  const clientId = env.GOOGLE_CLIENT_ID?.trim() ?? '';
  const clientSecret = env.GOOGLE_CLIENT_SECRET?.trim() ?? '';
  if (!clientId && !clientSecret) return null;
  if (!clientId || !clientSecret) {
    throw new Error('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together');
  }
  return {
    clientId,
    clientSecret,
    issuer: url('AYAH_GOOGLE_ISSUER', env.AYAH_GOOGLE_ISSUER || 'https://accounts.google.com'),
    redirectUri: url(
      'AYAH_GOOGLE_REDIRECT_URI',
      env.AYAH_GOOGLE_REDIRECT_URI || `${publicUrl}/api/v1/auth/google/callback`,
    ),
  };
}

function chainId(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 1;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new Error(`AYAH_SIWE_CHAIN_ID must be a positive integer, got "${value}"`);
  }
  return n;
}

/** AYAH_SAFETY_CONTACTS: comma-separated email addresses. */
export function loadClassSettings(env: Env): ClassSettings {
  const contacts = (env.AYAH_SAFETY_CONTACTS ?? '')
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean);
  for (const address of contacts)
    if (!/^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/.test(address))
      throw new Error(`AYAH_SAFETY_CONTACTS must be email addresses, got "${address}"`);
  return {
    safetyContacts: [...new Set(contacts)],
    teachersReadChats: env.AYAH_TEACHERS_READ_CHATS === '1',
  };
}

export function loadConfig(env: Env = process.env): Config {
  const listenPort = port(env.PORT);
  const dataDir = path.resolve(env.AYAH_DATA_DIR || './.data');
  const publicUrl = url('PUBLIC_URL', env.PUBLIC_URL || `http://localhost:${listenPort}`);
  return {
    port: listenPort,
    publicUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    databasePoolSize: positiveInt('AYAH_PG_POOL', env.AYAH_PG_POOL, 10),
    jwtSecret: jwtSecret(env.AYAH_JWT_SECRET, dataDir),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.AYAH_MAIL_FROM || 'Ayah <no-reply@ayah.local>',
    allowedOrigins: origins(env.AYAH_ALLOWED_ORIGINS),
    trustProxy: env.AYAH_TRUST_PROXY === '1' || env.AYAH_TRUST_PROXY === 'true',
    traceSends: env.AYAH_TRACE_SENDS === '1',
    maxBodyBytes: 1024 * 1024,
    requestTimeoutMs: positiveInt('AYAH_REQUEST_TIMEOUT_MS', env.AYAH_REQUEST_TIMEOUT_MS, 30_000),
    connectionsPerAddress: nonNegativeInt(env.AYAH_CONNECTIONS_PER_ADDRESS, 512),
    keepAliveMs: positiveInt('AYAH_KEEP_ALIVE_MS', env.AYAH_KEEP_ALIVE_MS, KEEP_ALIVE_MS),
    auth: DEFAULT_AUTH,
    llm: loadLlmSettings(env),
    chat: {
      rateLimit: positiveInt('AYAH_CHAT_RATE_LIMIT', env.AYAH_CHAT_RATE_LIMIT, 20),
      rateWindowMs: MINUTE,
      maxStreams: positiveInt('AYAH_MAX_STREAMS', env.AYAH_MAX_STREAMS, DEFAULT_MAX_STREAMS),
      streamQueue: positiveInt('AYAH_STREAM_QUEUE', env.AYAH_STREAM_QUEUE, DEFAULT_STREAM_QUEUE),
      concurrentReplies: 3,
      searchFiling: DEFAULT_SEARCH_FILING,
      pacing: DEFAULT_REPLY_PACING,
      firstWords: DEFAULT_FIRST_WORDS_FIRST,
    },
    limits: {
      ...DEFAULT_LIMITS,
      goalWrites: {
        limit: positiveInt('AYAH_GOAL_WRITE_LIMIT', env.AYAH_GOAL_WRITE_LIMIT, 60),
        windowMs: MINUTE,
      },
    },
    google: google(env, publicUrl),
    siweChainId: chainId(env.AYAH_SIWE_CHAIN_ID),
    trustedIssuers: parseTrustedIssuers(env.AYAH_TRUSTED_ISSUERS),
    lti: loadLtiConfig(env, dataDir),
    classes: loadClassSettings(env),
  };
}
