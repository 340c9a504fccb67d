/**
 * Boots the real server once per test file on 127.0.0.1 (a free port) with a fresh data dir, over
 * PGlite in memory, as migrated and empty (the worker's one, emptied for the file: pglite-lease.ts)
 * — or, in the `server-pg` project, over a database of its own in the PostgreSQL that
 * pg-global-setup.ts started. Tests share that database and keep apart by using their own users.
 *
 * The options choose what a file needs: the model settings, rate limits, auth timings, extra
 * environment. Users come two ways: through the real sign-up (`signedInUser`: the mail round trip)
 * or made straight in the database with a signed token (`user`: no mail, no argon2), so that a file
 * about chat, goals or points can make many users fast.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { serve } from '@hono/node-server';
import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject, onTestFinished } from 'vitest';

import { createApp } from '../../server/app';
import type {
  AuthSettings,
  ChatSettings,
  Config,
  LimitSettings,
  LlmSettings,
} from '../../server/config';
import { DEFAULT_AUTH, loadConfig } from '../../server/config';
import type { Database } from '../../server/db';
import { openDatabase } from '../../server/db';
import { pointsLedger } from '../../server/db/schema';
import type { Mail } from '../../server/mailer';
import { createMailer } from '../../server/mailer';
import { FakeOpenAI } from './fake-openai';
import { leasePglite } from './pglite-lease';
import { insertSignedInUser } from './seed-user';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the test PostgreSQL; empty when the PostgreSQL pass is skipped. */
    ayahPgUrl: string;
    /** A migrated database in it (pg-global-setup.ts), to create each file's from. */
    ayahPgTemplate: string;
    /** A migrated PGlite database's dump (pglite-global-setup.ts), to start each file's from. */
    ayahPgliteImage: string;
  }
}

export const onPostgres = process.env.AYAH_TEST_DB === 'postgres';
const pgAdminUrl = onPostgres ? inject('ayahPgUrl') : '';

/** `describe`, skipped (visibly) in the PostgreSQL project when no PostgreSQL is available. */
export const describeServer = describe.skipIf(onPostgres && !pgAdminUrl);

export const STRONG_PASSWORD = 'Blue-Kettle-42';

export function uniqueEmail(prefix = 'student'): string {
  return `${prefix}-${randomUUID().slice(0, 12)}@example.com`;
}

// Replies are read loosely in tests: each assertion checks the shape it needs.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

export interface Reply<T = Loose> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  /** Sent as it is (a string or bytes) instead of JSON. */
  raw?: BodyInit;
}

export interface SignedInUser {
  email: string;
  password: string;
  access_token: string;
  refresh_token: string;
  user: Loose;
}

export interface HarnessOptions {
  auth?: Partial<Omit<AuthSettings, 'throttle'>> & { throttle?: Partial<AuthSettings['throttle']> };
  smtpUrl?: string | null;
  staticDir?: string | null;
  /** Take client addresses from X-Forwarded-For (lets one test act as many clients). */
  trustProxy?: boolean;
  /** More environment for loadConfig, read at start (so it may name servers started just before). */
  env?: () => Record<string, string>;
  /** Rate limits (sign-up mails per address and per email are off unless a test sets them). */
  limits?: Partial<LimitSettings>;
  /** The tutor's model (none: the offline coach). */
  llm?: Partial<LlmSettings>;
  /** Chat settings (sends per minute are 1000 unless a test sets them). */
  chat?: Partial<ChatSettings>;
}

/** A user made straight in the database (`Harness.user`), with a live session and its token. */
export interface TestUser {
  id: string;
  token: string;
  email: string;
}

/** A log line: what was logged, and its text (errors by their message). */
type LogLine = { level: 'info' | 'warn' | 'error'; args: unknown[]; text: string };

const textOf = (args: unknown[]) =>
  args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ');

export class Harness {
  url = '';
  readonly mails: Mail[] = [];
  readonly logs: LogLine[] = [];
  config!: Config;
  database!: Database;
  dataDir = '';
  private offsetMs = 0;
  private frozenAt: number | null = null;
  private waiters: { match: (m: Mail) => boolean; resolve: (m: Mail) => void }[] = [];
  private closeServer: () => Promise<void> = async () => {};
  /** Does now what the app leaves for a quiet spell: the chat's search filing (app.ts `settle`). */
  settle: () => Promise<void> = async () => {};
  private dropDatabase: () => Promise<void> = async () => {};

  constructor(private readonly options: HarnessOptions = {}) {}

  now = () => new Date((this.frozenAt ?? Date.now()) + this.offsetMs);

  /** Stops the server's clock where it is (until `resetClock`): for tests whose timing is not the point. */
  freezeClock() {
    this.frozenAt = Date.now();
  }

  /** Moves the server's clock (tokens, throttle windows) forward. */
  advanceClock(ms: number) {
    this.offsetMs += ms;
  }

  resetClock() {
    this.offsetMs = 0;
    this.frozenAt = null;
  }

  /** Errors the running test causes on purpose (`expectError`), and whether each has come. */
  private expectedErrors: { pattern: RegExp; seen: boolean }[] = [];

  readonly logger = {
    info: (...args: unknown[]) => void this.logs.push({ level: 'info', args, text: textOf(args) }),
    warn: (...args: unknown[]) => void this.logs.push({ level: 'warn', args, text: textOf(args) }),
    error: (...args: unknown[]) => {
      const text = textOf(args);
      this.logs.push({ level: 'error', args, text });
      const expected = this.expectedErrors.find((e) => e.pattern.test(text));
      if (expected) expected.seen = true;
      else console.error(...args);
    },
  };

  /**
   * The running test causes an error the server logs (a fault it injects): kept in `logs` but off
   * the run's output, where only an unexpected error should catch the eye; the test fails if none
   * matching `pattern` is logged before it ends.
   */
  expectError(pattern: RegExp) {
    const expected = { pattern, seen: false };
    this.expectedErrors.push(expected);
    onTestFinished(() => {
      this.expectedErrors = this.expectedErrors.filter((e) => e !== expected);
      if (!expected.seen) throw new Error(`the server logged no error matching ${pattern}`);
    });
  }

  async start(): Promise<this> {
    this.dataDir = mkdtempSync(path.join(os.tmpdir(), 'ayah-test-'));
    const base = loadConfig({
      AYAH_DATA_DIR: this.dataDir,
      PUBLIC_URL: 'http://app.test',
      ...this.options.env?.(),
    });
    const { throttle, ...auth } = this.options.auth ?? {};
    this.config = {
      ...base,
      smtpUrl: this.options.smtpUrl ?? null,
      llm: { ...base.llm, ...this.options.llm },
      chat: { ...base.chat, rateLimit: 1000, ...this.options.chat },
      // A file's own AYAH_ALLOWED_ORIGINS (env), else the one portal the CORS tests call from.
      allowedOrigins: base.allowedOrigins.length
        ? base.allowedOrigins
        : ['https://portal.example.org'],
      trustProxy: this.options.trustProxy ?? false,
      // Every test comes from 127.0.0.1: only the throttle tests meet the sign-up limits.
      limits: {
        ...base.limits,
        accountMailPerAddress: { limit: 1_000_000, windowMs: 60_000 },
        accountMailPerEmail: { limit: 1_000_000, windowMs: 60_000 },
        walletPerAddress: { limit: 1_000_000, windowMs: 60_000 },
        newAccountsPerAddress: { limit: 1_000_000, windowMs: 60_000 },
        memoryWrites: { limit: 1_000_000, windowMs: 60_000 },
        ...this.options.limits,
      },
      auth: {
        ...DEFAULT_AUTH,
        mailCooldownMs: 0,
        ...auth,
        // Every test comes from 127.0.0.1: only the throttle tests meet the address limit.
        throttle: {
          ...DEFAULT_AUTH.throttle,
          address: { threshold: 10_000, baseLockMs: 1000, maxLockMs: 1000 },
          ...throttle,
        },
      },
    };
    this.database = await this.openDatabase();
    await this.database.migrate();
    const mailer = createMailer({
      smtpUrl: this.config.smtpUrl,
      from: this.config.mailFrom,
      outboxDir: path.join(this.dataDir, 'outbox'),
      logger: this.logger,
      onSent: (mail) => {
        this.mails.push(mail);
        this.waiters = this.waiters.filter((w) =>
          w.match(mail) ? (w.resolve(mail), false) : true,
        );
      },
    });
    const app = createApp({
      config: this.config,
      database: this.database,
      mailer,
      logger: this.logger,
      now: this.now,
      staticDir: this.options.staticDir ?? null,
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    // The test's fetch keeps idle sockets about 4 s (Node's server says keep-alive 5 s, undici keeps
    // a second less, on a coarse timer): on a starved event loop the two ends' timers came due
    // together and a request went out on a socket the server was closing (ECONNRESET, the fuzz test
    // at load 25). The server here keeps an idle socket far longer than any client does.
    (server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    this.settle = () => app.settle();
    this.closeServer = async () => {
      // Streams a test left open must not keep the server from closing.
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.stop();
      await mailer.flush();
    };
    return this;
  }

  private async openDatabase(): Promise<Database> {
    // The worker's one PGlite, emptied for this file (pglite-lease.ts).
    if (!onPostgres) return leasePglite(inject('ayahPgliteImage'));
    const { url, drop } = await freshPgDatabase(inject('ayahPgTemplate'));
    this.dropDatabase = drop;
    return openDatabase({ url, poolSize: 10 });
  }

  async close(): Promise<void> {
    await this.closeServer();
    await this.database?.close();
    await this.dropDatabase();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  async request<T = Loose>(
    method: string,
    route: string,
    body?: unknown,
    options: RequestOptions = {},
  ) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: BodyInit | undefined = options.raw;
    if (payload === undefined && body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(this.url + route, { method, headers, body: payload });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return {
      status: response.status,
      headers: response.headers,
      body: parsed as T,
      text,
    } as Reply<T>;
  }

  get = <T = Loose>(route: string, options?: RequestOptions) =>
    this.request<T>('GET', route, undefined, options);
  post = <T = Loose>(route: string, body?: unknown, options?: RequestOptions) =>
    this.request<T>('POST', route, body, options);
  put = <T = Loose>(route: string, body?: unknown, options?: RequestOptions) =>
    this.request<T>('PUT', route, body, options);

  /** The ids of the chats that `GET /chat/search` finds for `user` (its first page), in order. */
  async searchIds(user: TestUser, needle: string): Promise<string[]> {
    const found = await this.as(user).get(
      `/api/v1/chat/search?search=${encodeURIComponent(needle)}`,
    );
    return (found.body.sessions as { id: string }[]).map((s) => s.id);
  }

  /** Calls as `user` (a token string or a TestUser). */
  as(user: TestUser | string) {
    const token = typeof user === 'string' ? user : user.token;
    return {
      get: <T = Loose>(route: string) => this.request<T>('GET', route, undefined, { token }),
      post: <T = Loose>(route: string, body?: unknown) =>
        this.request<T>('POST', route, body, { token }),
      put: <T = Loose>(route: string, body?: unknown) =>
        this.request<T>('PUT', route, body, { token }),
      patch: <T = Loose>(route: string, body?: unknown) =>
        this.request<T>('PATCH', route, body, { token }),
      delete: <T = Loose>(route: string) => this.request<T>('DELETE', route, undefined, { token }),
    };
  }

  /** A verified user with a live sign-in session and its access token, made in the database. */
  async user(name = 'Sam'): Promise<TestUser> {
    const at = this.now();
    return insertSignedInUser(
      this.database,
      this.config.jwtSecret,
      {
        email: `learner-${randomUUID().slice(0, 12)}@example.com`,
        displayName: name,
        lastLogin: at,
      },
      // Long enough for tests that move the clock forward by days.
      { at, sessionDays: 60, tokenSeconds: 30 * 86_400 },
    );
  }

  /** Gives a user points through the ledger (as an award would). */
  async grant(userId: string, amount: number) {
    await this.database.db.insert(pointsLedger).values({
      userId,
      amount,
      type: 'earned',
      category: 'test',
      description: 'Test grant',
      // The server's clock, as every row the server writes (the database's own now() has
      // microseconds, and would sort after a row the server writes in the same millisecond).
      createdAt: this.now(),
    });
  }

  /**
   * A statement straight on the database, as an operator would run it. Answers once the server has
   * heard of any change it made to a user or a session (its session cache forgets them on hearing).
   */
  async sql<T = Loose>(query: SQL): Promise<T[]> {
    const result = (await this.database.db.execute(query)) as { rows?: T[] };
    await this.database.notifications.caughtUp();
    return result.rows ?? [];
  }

  /**
   * Fault injection in the database: from now until the test ends, recording the points
   * distribution of a conversion of exactly `points` fails (a trigger on `conversions` raises
   * 'distribution down' when such a row turns 'success'). Cleaned up when the test finishes; the
   * returned function removes it sooner (calling it twice is harmless).
   */
  async failDistribution(points: number): Promise<() => Promise<void>> {
    if (!Number.isSafeInteger(points))
      throw new Error(`failDistribution: ${points} is not an integer`);
    const name = `fail_distribution_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await this.sql(
      sql.raw(`
      create function ${name}() returns trigger language plpgsql as $$
      begin
        if new.status = 'success' and new.points = ${points} then raise exception 'distribution down'; end if;
        return new;
      end $$`),
    );
    await this.sql(
      sql.raw(
        `create trigger ${name} before update on conversions for each row execute function ${name}()`,
      ),
    );
    let restored = false;
    const restore = async () => {
      if (restored) return;
      restored = true;
      await this.sql(sql.raw(`drop trigger if exists ${name} on conversions`));
      await this.sql(sql.raw(`drop function if exists ${name}()`));
    };
    onTestFinished(restore);
    return restore;
  }

  /** The next mail to `to` (already received, or arriving within a few seconds). */
  mailTo(to: string, subject?: RegExp, timeoutMs = 5000): Promise<Mail> {
    const match = (m: Mail) => m.to === to && (!subject || subject.test(m.subject));
    const seen = this.mails.filter(match).at(-1);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** Every mail to `to` so far. */
  mailsTo(to: string): Mail[] {
    return this.mails.filter((m) => m.to === to);
  }

  async register(overrides: Record<string, unknown> = {}) {
    const email = (overrides.email as string) ?? uniqueEmail();
    const password = (overrides.password as string) ?? STRONG_PASSWORD;
    const reply = await this.post('/api/v1/auth/register', {
      email,
      password,
      display_name: 'Sam Student',
      agreed_to_terms: true,
      agreed_to_privacy: true,
      ...overrides,
    });
    return { email, password, reply };
  }

  /** A registered, verified and signed-in user (through the verification link of the mail). */
  async signedInUser(overrides: Record<string, unknown> = {}): Promise<SignedInUser> {
    const { email, password, reply } = await this.register(overrides);
    if (reply.status !== 201) throw new Error(`register: ${reply.status} ${reply.text}`);
    const mail = await this.mailTo(email, /Confirm/);
    const verified = await this.post('/api/v1/auth/verify-email', { token: tokenOf(mail) });
    if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${verified.text}`);
    return { email, password, ...verified.body };
  }
}

/**
 * A new database in the test PostgreSQL, and how to drop it: empty, or a copy of `template` (the
 * migrated one pg-global-setup.ts made).
 */
export async function freshPgDatabase(
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ayah_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: pgAdminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** The token of the one link in a mail. */
export function tokenOf(mail: Mail): string {
  const token = new URL(mail.link!).searchParams.get('token');
  if (!token) throw new Error(`no token in ${mail.link}`);
  return token;
}

/** One server for the whole file: started before its tests, closed after them. */
export function useTestServer(options: HarnessOptions = {}): Harness {
  // Server files share a worker's modules (isolate: false), and vitest never hands one project's
  // worker to another: should that change, a PostgreSQL file would quietly run on PGlite.
  if ((process.env.AYAH_TEST_DB === 'postgres') !== onPostgres)
    throw new Error('tests/server/harness.ts was loaded for the other server project');
  const harness = new Harness(options);
  beforeAll(async () => {
    if (onPostgres && !pgAdminUrl) return;
    await harness.start();
  });
  afterAll(async () => {
    if (harness.url) await harness.close();
  });
  return harness;
}

/**
 * `useTestServer` with a scripted model as the tutor's endpoint (fake-openai.ts), started before the
 * server and closed after it; a reply may stall 5 s and take 10 s in all.
 */
export function useTestServerWithModel(options: HarnessOptions = {}) {
  const fake = new FakeOpenAI();
  beforeAll(async () => {
    await fake.start();
    options.llm = { baseUrl: fake.url, model: 'tutor-test', stallMs: 5000, timeoutMs: 10_000 };
  });
  afterAll(() => fake.close());
  return { fake, h: useTestServer(options) };
}

/** True when a reply is FastAPI-shaped: `{detail: string}` or `{detail: [{loc, msg, type}]}`. */
export function isFastApiError(body: unknown): boolean {
  if (!body || typeof body !== 'object' || !('detail' in body)) return false;
  const { detail } = body as { detail: unknown };
  if (typeof detail === 'string') return detail.length > 0;
  return (
    Array.isArray(detail) &&
    detail.length > 0 &&
    detail.every(
      (item) =>
        item &&
        Array.isArray(item.loc) &&
        item.loc.every((p: unknown) => typeof p === 'string' || typeof p === 'number') &&
        typeof item.msg === 'string' &&
        typeof item.type === 'string',
    )
  );
}

/** A streamed answer read whole: its events in order. */
export interface SseEvent {
  event: string;
  data: Loose;
}

export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\n\n/)) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length === 0) continue;
    const raw = data.join('\n');
    let parsed: unknown = raw;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // keep the raw text
    }
    events.push({ event, data: parsed });
  }
  return events;
}

/**
 * An event stream read to its end, each event with the moment (`performance.now()`) the read that
 * brought it arrived; `onEvent` hears each as it comes.
 */
export async function timedSse(
  response: Response,
  onEvent?: (event: SseEvent) => void,
): Promise<(SseEvent & { at: number })[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: (SseEvent & { at: number })[] = [];
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const at = performance.now();
    buffer += decoder.decode(value, { stream: true });
    const end = buffer.lastIndexOf('\n\n');
    if (end === -1) continue;
    for (const event of parseSse(buffer.slice(0, end + 2))) {
      events.push({ ...event, at });
      onEvent?.(event);
    }
    buffer = buffer.slice(end + 2);
  }
  return events;
}
