import type { Subject } from '../lib/limits';
import type {
  ArchiveAdapter,
  CallOptions,
  ChatSession,
  ChatSessionPage,
  MessageResponse,
  User,
  UserResponse,
} from '../wire';

/** The wire types settings shares with the auth and chat adapters (src/wire.ts), for its own files. */
export type { ChatSession, ChatSessionPage, User, UserResponse };

/** PUT /auth/profile. `interests` is left as it is when not sent. */
export type UpdateProfileRequest = {
  display_name: string;
  bio: string;
  interests?: Subject[];
};

/** POST /auth/change-password; 400 'Current password is incorrect'; 403 for Google or wallet users. */
export type ChangePasswordRequest = {
  current_password: string;
  new_password: string;
};

/**
 * DELETE /auth/account. `confirm` is the account's email; a Google account types its display name;
 * a wallet account signs a fresh server nonce (POST /auth/web3/nonce) and sends the message and
 * signature, with its address as `confirm`.
 */
export type DeleteAccountRequest = {
  confirm: string;
  /** Email accounts: the account's password. */
  password?: string;
  message?: string;
  signature?: string;
};

/** GET /auth/export: everything the account holds, as one JSON document. */
export type AccountExport = {
  exported_at: string;
  user: Record<string, unknown>;
  /** The profile picture as a data URL, or null. */
  avatar: { content_type: string; data_url: string } | null;
  chats: Record<string, unknown>[];
  goals: Record<string, unknown>[];
  points_ledger: Record<string, unknown>[];
  conversions: Record<string, unknown>[];
  learning_memory: Record<string, unknown>[];
  /** The school portals that sign the student in, and who each says the student is. */
  portal_identities: {
    issuer: string;
    subject: string;
    email: string | null;
    created_at: string;
  }[];
  /** The student's classes and their role in each. */
  classes: Record<string, unknown>[];
  /** Safety alerts about the student: category, status and their own flagged messages. */
  safety_alerts: Record<string, unknown>[];
};

/**
 * Profile, Security and Data Controls. Data Controls are the chat archive calls, by the same names
 * and over the same paths as the chat adapter's.
 */
export interface SettingsAdapter extends ArchiveAdapter {
  /** Saves the display name and bio. */
  updateProfile(body: UpdateProfileRequest, options?: CallOptions): Promise<UserResponse>;
  /** Uploads an image under 5 MB as multipart field `file`; the answer's avatar URL is absolute. */
  uploadAvatar(file: Blob, options?: CallOptions): Promise<UserResponse>;
  /** Changes the password of an email account. */
  changePassword(body: ChangePasswordRequest, options?: CallOptions): Promise<MessageResponse>;
  /** Everything the account holds, as one JSON document. */
  exportData(options?: CallOptions): Promise<AccountExport>;
  /** Removes the account and every row of it; every token stops working. */
  deleteAccount(body: DeleteAccountRequest, options?: CallOptions): Promise<MessageResponse>;
}
