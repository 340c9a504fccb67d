// The chat: the conversation with Ayah, the saved chats and their search.
export { Chat, type ChatProps } from './Chat';
export { CHAT_DISCLAIMER } from './ChatComposer';
export { ChatSidebar, type ChatSidebarProps } from './ChatSidebar';
export { loadReplyRenderer } from './ReplyMarkdown';
export { SearchChatsDialog, type SearchChatsDialogProps } from './SearchChatsDialog';

// The machines, for hosts that drive the chat themselves.
export { chatLogic, chatMachine } from './chat.machine';
export type { ChatEntry, ChatEntryStatus } from './chat.thread';
export type {
  ChatContext,
  ChatEmitted,
  ChatEvent,
  ChatInput,
  SearchContext,
  SearchEvent,
  SessionsContext,
  SessionsEmitted,
  SessionsEvent,
} from './chat.types';
export { searchLogic, searchMachine } from './search.machine';
export { sessionsLogic, sessionsMachine } from './sessions.machine';

// What the chat remembers in the browser, and the event that reloads the chat lists.
export { REFRESH_CHAT_HISTORY_EVENT } from '../lib/messages';
export {
  browserChatStore,
  type ChatStore,
  keyValueChatStore,
  memoryChatStore,
  type StoredChat,
} from './chat.store';
