/**
 * The wire types every feature's adapter shares: call options, paging, plain confirmations, the user
 * (auth and settings answer with it) and the chat archive (chat and settings' Data Controls call it).
 * A leaf module: adapters import it, and `api.ts`, which gathers the adapters, re-exports it.
 */
import type { Subject } from './lib/limits';

/** The last argument of every adapter call: machines pass the signal `fromPromise` gives them. */
export type CallOptions = {
  signal?: AbortSignal;
};

/** `?limit&page` of a paged call; `page` counts from 1. */
export type PageQuery = {
  limit?: number;
  page?: number;
};

/** A paged answer: `{<items>, total, page, limit, hasMore}`, the items under the key `K`. */
export type Paged<K extends string, T> = { [P in K]: T[] } & {
  total: number;
  page: number;
  limit: number;
  hasMore: boolean;
};

/** The answer of calls that only confirm: `{message}`. */
export type MessageResponse = {
  message: string;
};

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
  /** The subjects picked at onboarding, editable in Settings; empty when none were picked. */
  interests: Subject[];
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

/** Answers that carry only the user: GET /me, PUT /profile, the avatar upload, onboarding. */
export type UserResponse = {
  user: User;
};

/** A session as lists show it. */
export type ChatSession = {
  id: string;
  title: string;
  createdAt: string;
  lastMessageAt: string;
  messageCount: number;
};

/** A page of sessions: `{sessions, total, page, limit, hasMore}`. */
export type ChatSessionPage = Paged<'sessions', ChatSession>;

/** The chat archive calls: chat's adapter has them, and Settings' Data Controls are made of them. */
export interface ArchiveAdapter {
  /** Archived sessions; `limit` 50 and `page` 1 unless given. */
  listArchived(query?: PageQuery, options?: CallOptions): Promise<ChatSessionPage>;
  /** Archives every active session. */
  archiveAll(options?: CallOptions): Promise<MessageResponse>;
  /** Deletes every session, archived ones too. */
  deleteAll(options?: CallOptions): Promise<MessageResponse>;
  /** Brings one session back from the archive and answers with it. */
  unarchiveSession(id: string, options?: CallOptions): Promise<ChatSession>;
  /** Deletes one archived session. */
  deleteArchivedSession(id: string, options?: CallOptions): Promise<MessageResponse>;
}
