import { useLayoutEffect, useRef } from 'react';
import type { Subscription } from 'xstate';

import { REFRESH_CHAT_HISTORY_EVENT } from '../lib/messages';
import { showNotice } from '../ui/toast';
import type { User } from './settings.adapter';
import type { SettingsNotice } from './settings.notices';

type Source = {
  on(
    type: '*',
    handler: (notice: SettingsNotice | { type: `${string}.${string}` }) => void,
  ): Subscription;
};

/**
 * Carries out what a settings machine emits: toasts, the fresher user for the host, and the
 * 'refresh-chat-history' window event after the archive changed. Subscribed in a layout effect,
 * before the actor starts.
 */
export function useSettingsNotices(actor: Source, onUserChange?: (user: User) => void): void {
  const latest = useRef(onUserChange);
  useLayoutEffect(() => {
    latest.current = onUserChange;
  });
  useLayoutEffect(() => {
    const subscription = actor.on('*', (emitted) => {
      const notice = emitted as SettingsNotice;
      if (notice.type === 'notify') return void showNotice(notice);
      if (notice.type === 'user.updated') return latest.current?.(notice.user);
      if (notice.type === 'chats.changed')
        window.dispatchEvent(new Event(REFRESH_CHAT_HISTORY_EVENT));
    });
    return () => subscription.unsubscribe();
  }, [actor]);
}
