import type { Subject } from '../lib/limits';
import type { CallOptions, MessageResponse } from '../wire';
import type { UserResponse } from '../auth/auth.adapter';
import type { ChatAdapter } from '../chat/chat.adapter';

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
 * Profile, Security and Data Controls. Data Controls are the chat archive calls, by the same names
 * and over the same paths as the chat adapter's.
 */
export interface SettingsAdapter extends Pick<
  ChatAdapter,
  'listArchived' | 'unarchiveSession' | 'deleteArchivedSession' | 'archiveAll' | 'deleteAll'
> {
  /** Saves the display name and bio. */
  updateProfile(body: UpdateProfileRequest, options?: CallOptions): Promise<UserResponse>;
  /** Uploads an image under 5 MB as multipart field `file`; the answer's avatar URL is absolute. */
  uploadAvatar(file: Blob, options?: CallOptions): Promise<UserResponse>;
  /** Changes the password of an email account. */
  changePassword(body: ChangePasswordRequest, options?: CallOptions): Promise<MessageResponse>;
}
