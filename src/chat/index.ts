// The chat: the conversation with Ayah, the saved chats and their search.
export { Chat, type ChatProps } from './Chat';
export { CHAT_DISCLAIMER } from './ChatComposer';
export { ChatSidebar, type ChatSidebarProps } from './ChatSidebar';
export { loadReplyRenderer } from './ReplyMarkdown';
export { SearchChatsDialog, type SearchChatsDialogProps } from './SearchChatsDialog';

// The machines, for hosts that drive the chat themselves.
export {
  type ChatContext,
  type ChatEmitted,
  type ChatEvent,
  type ChatInput,
  chatLogic,
  chatMachine,
} from './chat.machine';
export type { ChatEntry, ChatEntryStatus } from './chat.thread';
export { searchLogic, searchMachine } from './search.machine';
export { type SearchContext, type SearchEvent } from './search.setup';
export { sessionsLogic, sessionsMachine } from './sessions.machine';
export { type SessionsContext, type SessionsEmitted, type SessionsEvent } from './sessions.setup';

// What the chat remembers in the browser, and the event that reloads the chat lists.
export { REFRESH_CHAT_HISTORY_EVENT } from '../lib/messages';
export {
  browserChatStore,
  type ChatStore,
  keyValueChatStore,
  memoryChatStore,
  type StoredChat,
} from './chat.store';
