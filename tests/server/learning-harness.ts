/**
 * The harness of the learning tests (chat, memory, goals, points): the real server over real HTTP on
 * PGlite or PostgreSQL like `harness.ts`, but with the model settings a test chooses, and users made
 * straight in the database with a signed access token (no mail round trip, no argon2), so that a
 * file can make many users fast and keep its tests apart by user.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import type { SQL } from 'drizzle-orm';
import { afterAll, beforeAll, inject } from 'vitest';
import { createApp } from '../../server/app';
import { signAccessToken } from '../../server/auth/tokens';
import type { ChatSettings, Config, LimitSettings, LlmSettings } from '../../server/config';
import { DEFAULT_AUTH, loadConfig } from '../../server/config';
import type { Database } from '../../server/db';
import { openDatabase } from '../../server/db';
import { authSessions, pointsLedger, users } from '../../server/db/schema';
import { createMailer } from '../../server/mailer';
import type { Loose, Reply, RequestOptions } from './harness';
import { freshPgDatabase, onPostgres } from './harness';

export { describeServer, isFastApiError, onPostgres } from './harness';
export type { Loose } from './harness';

export interface LearningOptions {
  llm?: Partial<LlmSettings>;
  chat?: Partial<ChatSettings>;
  limits?: Partial<LimitSettings>;
}

export interface TestUser {
  id: string;
  token: string;
  email: string;
}

type LogLine = { level: 'info' | 'warn' | 'error'; text: string };

export class LearningHarness {
  url = '';
  config!: Config;
  database!: Database;
  readonly logs: LogLine[] = [];
  private offsetMs = 0;
  private dataDir = '';
  private stop: () => Promise<void> = async () => {};

  constructor(private readonly options: LearningOptions = {}) {}

  now = () => new Date(Date.now() + this.offsetMs);
  advanceClock(ms: number) {
    this.offsetMs += ms;
  }
  resetClock() {
    this.offsetMs = 0;
  }

  private log =
    (level: LogLine['level']) =>
    (...args: unknown[]) =>
      void this.logs.push({
        level,
        text: args.map((a) => (a instanceof Error ? a.message : String(a))).join(' '),
      });
  readonly logger = { info: this.log('info'), warn: this.log('warn'), error: this.log('error') };

  async start(): Promise<this> {
    this.dataDir = mkdtempSync(path.join(os.tmpdir(), 'ayah-learn-'));
    const base = loadConfig({ AYAH_DATA_DIR: this.dataDir, PUBLIC_URL: 'http://app.test' });
    this.config = {
      ...base,
      auth: DEFAULT_AUTH,
      llm: { ...base.llm, ...this.options.llm },
      chat: { ...base.chat, rateLimit: 1000, ...this.options.chat },
      limits: { ...base.limits, ...this.options.limits },
    };
    let drop = async () => {};
    if (onPostgres) {
      const fresh = await freshPgDatabase();
      drop = fresh.drop;
      this.database = await openDatabase({ url: fresh.url, poolSize: 10 });
    } else {
      this.database = await openDatabase({ dataDir: null });
    }
    await this.database.migrate();
    const mailer = createMailer({
      smtpUrl: null,
      from: this.config.mailFrom,
      outboxDir: path.join(this.dataDir, 'outbox'),
      logger: this.logger,
    });
    const app = createApp({
      config: this.config,
      database: this.database,
      mailer,
      logger: this.logger,
      now: this.now,
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    this.stop = async () => {
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await this.database.close();
      await drop();
      rmSync(this.dataDir, { recursive: true, force: true });
    };
    return this;
  }

  close() {
    return this.stop();
  }

  /** A verified user with a live sign-in session and its access token. */
  async user(name = 'Sam'): Promise<TestUser> {
    const email = `learner-${randomUUID().slice(0, 12)}@example.com`;
    const at = this.now();
    const [user] = await this.database.db
      .insert(users)
      .values({ email, displayName: name, emailVerifiedAt: at, lastLogin: at })
      .returning();
    const [session] = await this.database.db
      .insert(authSessions)
      .values({ userId: user!.id, expiresAt: new Date(at.getTime() + 60 * 86_400_000) })
      .returning();
    const token = await signAccessToken(
      { sub: user!.id, sid: session!.id, tv: user!.tokenVersion },
      this.config.jwtSecret,
      at,
      // Long enough for tests that move the clock forward by days.
      30 * 86_400,
    );
    return { id: user!.id, token, email };
  }

  /** Gives a user points through the ledger (as an award would). */
  async grant(userId: string, amount: number) {
    await this.database.db.insert(pointsLedger).values({
      userId,
      amount,
      type: 'earned',
      category: 'test',
      description: 'Test grant',
    });
  }

  async sql<T = Loose>(query: SQL): Promise<T[]> {
    const result = (await this.database.db.execute(query)) as { rows?: T[] };
    return result.rows ?? [];
  }

  async request<T = Loose>(
    method: string,
    route: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: BodyInit | undefined = options.raw;
    if (payload === undefined && body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(this.url + route, { method, headers, body: payload });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
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
}

/** One server for the whole file (skipped with the file when the PostgreSQL pass has no server). */
export function useLearningServer(options: LearningOptions = {}): LearningHarness {
  const harness = new LearningHarness(options);
  beforeAll(async () => {
    if (onPostgres && !inject('ayahPgUrl')) return;
    await harness.start();
  });
  afterAll(async () => {
    if (harness.url) await harness.close();
  });
  return harness;
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
