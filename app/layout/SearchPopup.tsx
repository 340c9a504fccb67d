import { SearchChatsDialog, type SearchChatsDialogProps } from 'ayah-coach/chat';

import { useApi } from '../api';

/**
 * The phone's Search Chats, over the page once the drawer has closed (SidebarLayout.tsx): its own
 * chunk, fetched as the drawer opens. (A dynamic import of `ayah-coach/chat` itself would keep the
 * whole entry, which the page already imports from, in the page's own chunk.)
 */
export function SearchPopup(props: Omit<SearchChatsDialogProps, 'adapter'>) {
  const api = useApi();
  return <SearchChatsDialog adapter={api.chat} {...props} />;
}
