/*
 * The settings in types: what the profile, password, account and archive machines hold (context), hear
 * (events) and tell the page (emitted). The wire shapes stay in `settings.adapter.ts`, the notices the
 * host carries out in `settings.notices.ts`.
 */
import type { Subject } from '../lib/limits';
import type { ChangePasswordFields } from '../lib/validation';
import type { AccountExport, ChatSession, DeleteAccountRequest, User } from './settings.adapter';
import type { SettingsNotice } from './settings.notices';

// Profile (profile.machine.ts).

export type ProfileForm = { displayName: string; bio: string; interests: Subject[] };

export type ProfileContext = {
  form: ProfileForm;
  /** What the server holds, to tell a change from none. */
  saved: ProfileForm;
  /** The picked image's preview URL while it uploads, then the server's. */
  avatarUrl: string | null;
  /** The server's avatar URL, shown again when an upload fails. */
  savedAvatarUrl: string | null;
  /** Why the picked file was refused. */
  avatarError: string | null;
  /** Why the form was not saved. */
  error: string | null;
};

export type ProfileEvent =
  | { type: 'profile.edit'; field: 'displayName' | 'bio'; value: string }
  | { type: 'interest.toggle'; subject: Subject }
  | { type: 'profile.save' }
  | { type: 'avatar.pick'; file: File | (Blob & { name?: string }); preview: string | null }
  | { type: 'user.sync'; user: User };

// Security: the password change (password.machine.ts).

export type PasswordContext = {
  /** Why the last attempt was refused: a rule of section 5 or a server error of section 8. */
  error: string | null;
};

export type PasswordEvent = { type: 'password.submit' } & ChangePasswordFields;

// Account: export and deletion (account.machine.ts).

export type AccountContext = { error: string | null };

export type AccountEvent =
  | { type: 'export.start' }
  | { type: 'delete.start' }
  | { type: 'delete.confirm'; body: DeleteAccountRequest }
  | { type: 'delete.cancel' };

export type AccountEmitted =
  | SettingsNotice
  /** The export arrived: the component saves it as a file. */
  | { type: 'export.ready'; data: AccountExport }
  /** The account is gone: the host signs out. */
  | { type: 'account.deleted' };

// Data Controls: the archived chats (archive.machine.ts).

export type ArchiveContext = {
  sessions: ChatSession[];
  /** The page shown, from 1 (50 a page). */
  page: number;
  hasMore: boolean;
  total: number;
  /** The archived chat being deleted. */
  target: ChatSession | null;
};

export type ArchiveEvent =
  | { type: 'archive.refresh' }
  | { type: 'archive.next' }
  | { type: 'archive.previous' }
  | { type: 'session.unarchive'; sessionId: string }
  | { type: 'session.delete'; sessionId: string }
  | { type: 'all.archive' }
  | { type: 'all.delete' }
  | { type: 'action.confirm' }
  | { type: 'action.cancel' };
