import { lazyComponent } from '../ui/lazy-component';

// The sidebar's dialogs are fetched on intent (Search Chats hovered or focused, a chat's menu opened)
// or on their first opening, not with the sidebar: most visits never search, rename or delete.
export const [SearchChatsDialog, preloadSearch] = lazyComponent(
  () => import('./SearchChatsDialog'),
  'SearchChatsDialog',
);
const [RenameChatDialog, preloadRename] = lazyComponent(
  () => import('./RenameChatDialog'),
  'RenameChatDialog',
);
const [DeleteChatDialog, preloadDelete] = lazyComponent(
  () => import('./DeleteChatDialog'),
  'DeleteChatDialog',
);
export { DeleteChatDialog, RenameChatDialog };

/** Starts fetching the Rename and Delete dialogs, e.g. as a chat's menu opens. */
export function preloadSessionDialogs() {
  preloadRename();
  preloadDelete();
}
