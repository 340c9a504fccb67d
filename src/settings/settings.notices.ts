import type { Notice } from '../lib/notices';
import type { User } from './settings.adapter';

/** What the settings machines ask their components to do, as emitted events. */
export type SettingsNotice =
  | Notice
  /** The server answered with a fresher user: the host adopts it (`useAuth().updateUser`). */
  | { type: 'user.updated'; user: User }
  /** The chat lists changed: the component fires 'refresh-chat-history'. */
  | { type: 'chats.changed' };
