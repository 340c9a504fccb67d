import { lazy } from 'react';

// The sidebar's dialogs are fetched on intent (Search Chats hovered or focused, a chat's menu opened)
// or on their first opening, not with the sidebar: most visits never search, rename or delete.
const loadSearch = () => import('./SearchChatsDialog');
const loadRename = () => import('./RenameChatDialog');
const loadDelete = () => import('./DeleteChatDialog');

/** Starts fetching the search dialog, e.g. as the pointer or focus reaches Search Chats. */
export function preloadSearch() {
  loadSearch().catch(() => {});
}

/** Starts fetching the Rename and Delete dialogs, e.g. as a chat's menu opens. */
export function preloadSessionDialogs() {
  loadRename().catch(() => {});
  loadDelete().catch(() => {});
}

export const SearchChatsDialog = lazy(() =>
  loadSearch().then(({ SearchChatsDialog }) => ({ default: SearchChatsDialog })),
);
export const RenameChatDialog = lazy(() =>
  loadRename().then(({ RenameChatDialog }) => ({ default: RenameChatDialog })),
);
export const DeleteChatDialog = lazy(() =>
  loadDelete().then(({ DeleteChatDialog }) => ({ default: DeleteChatDialog })),
);
