/**
 * The ports several domains ask for, declared once below the domains (types only). server/app.ts
 * builds what implements them (the points domain's ledger, each domain's account rows) and hands
 * them in, so no domain imports another.
 */
import type { Queryable } from './db';
import type { User } from './db/schema';
import type { GiveWay } from './llm/completions';
import type { ReplyPiece, Turn } from './llm/model';

/** A one-time award, or a take-back, written to a user's points ledger. */
export interface Award {
  key: string;
  amount: number;
  category: string;
  description: string;
  at: Date;
}

/**
 * How chat, goals and auth change a user's points. Every method runs inside the caller's
 * transaction `q`, and whoever changes a balance holds the user lock first (`lockUser`,
 * server/db/locks.ts): the lock order everywhere is user → session/goal → ledger.
 */
export interface PointsLedger {
  /** Writes a one-time award; false when its key was already used. */
  award(q: Queryable, userId: string, award: Award): Promise<boolean>;
  /** Takes up to `entry.amount` points back, never below a zero balance; answers what was taken. */
  takeBack(q: Queryable, userId: string, entry: Award): Promise<number>;
  /** How many awards of `category` the user was given since `since` (taken back or not). */
  awardsSince(q: Queryable, userId: string, category: string, since: Date): Promise<number>;
  /** The net points of every row whose key starts with `prefix` (an award and its take-backs). */
  netByKeyPrefix(
    q: Queryable,
    userId: string,
    prefix: string,
  ): Promise<{ net: number; rows: number }>;
}

/** A message the safety check flagged, as chat stores it (table `safety_events`) and the tutor records it. */
export interface SafetyEvent {
  source: 'local' | 'moderation';
  direction: 'student' | 'reply';
  categories: string[];
}

/** One question to the tutor, as chat's send routes take it from the client. */
export interface TurnInput {
  messages: Turn[];
  sessionId?: string | null | undefined;
  dashboardData?: Record<string, unknown> | undefined;
  /** The student's IANA time zone (`X-Timezone`): the week of the goals in the context. */
  timeZone?: string | undefined;
}

export interface TutorTurn {
  sessionId: string;
  threadId: string;
  /** The reply as it is produced, with statuses between (not part of it); throws a TutorError when it fails. */
  reply: AsyncGenerator<ReplyPiece, void, undefined>;
  /** Checks and stores the complete reply; answers the text that was stored. */
  complete(text: string): Promise<string>;
  /**
   * What the tutor does once the reply is stored and the student has it: it remembers what the turn
   * covered (with an embedding model, a call to the endpoint). Never throws; does nothing before
   * `complete` has run, nor once the tutor has stopped. Runs to its end whether awaited or not
   * (`Tutor.stop` waits for it).
   */
  followUp(): Promise<void>;
}

/** What chat's send routes ask of the tutor (server/tutor/ implements it). */
export interface Tutor {
  /** Takes the send and starts the reply; `giveWay`: when the reply waits its turn to read on. */
  begin(user: User, input: TurnInput, signal: AbortSignal, giveWay?: GiveWay): Promise<TutorTurn>;
  /** Waits for the follow-ups still running (before the database closes). */
  stop(): Promise<void>;
}
