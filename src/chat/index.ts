// The chat: the conversation with Ayah, the saved chats and their search.
export { Chat, type ChatProps } from './Chat';
export { ChatSidebar, type ChatSidebarProps } from './ChatSidebar';
export { SearchChatsDialog, type SearchChatsDialogProps } from './SearchChatsDialog';
export { CHAT_DISCLAIMER } from './ChatComposer';
export { loadReplyRenderer } from './ReplyMarkdown';

// The machines, for hosts that drive the chat themselves.
export {
  chatLogic,
  chatMachine,
  type ChatContext,
  type ChatEmitted,
  type ChatEvent,
  type ChatInput,
} from './chat.machine';
export {
  sessionsLogic,
  sessionsMachine,
  type SessionsContext,
  type SessionsEmitted,
  type SessionsEvent,
} from './sessions.machine';
export { searchLogic, searchMachine, type SearchContext, type SearchEvent } from './search.machine';
export type { ChatEntry, ChatEntryStatus } from './chat.thread';

// What the chat remembers in the browser, and the event that reloads the chat lists.
export {
  browserChatStore,
  memoryChatStore,
  keyValueChatStore,
  type ChatStore,
  type StoredChat,
} from './chat.store';
export { REFRESH_CHAT_HISTORY_EVENT } from '../lib/messages';
