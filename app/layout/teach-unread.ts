import { useSyncExternalStore } from 'react';

/**
 * The count of safety alerts the signed-in adult has not opened, shared by the sidebar's Teach link
 * and the /teach page: opening an alert there lowers the link's badge at once, and the link's own
 * refreshes (on arrival, when the tab comes back, every minute) reach the page's readers too.
 * `null` until known, or for an account that does not teach.
 */
let unread: number | null = null;
const listeners = new Set<() => void>();

export function setTeachUnread(count: number | null) {
  if (count === unread) return;
  unread = count;
  for (const listener of listeners) listener();
}

export function useTeachUnread(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => unread,
    () => null,
  );
}
