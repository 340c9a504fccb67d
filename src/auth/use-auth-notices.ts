import { useLayoutEffect, useRef } from 'react';
import type { Subscription } from 'xstate';

import { showNotice, toast } from '../ui/toast';
import type { AuthNotice } from './auth.notices';

/** An actor whose emitted events are `AuthNotice`s. */
export type NoticeSource = {
  on(type: '*', handler: (notice: AuthNotice) => void): Subscription;
};

export type NoticeHandlers = {
  /** Called for in-app navigation. */
  onNavigate?: ((path: string) => void) | undefined;
  /** Called for a full-page redirect. */
  redirect?: ((url: string) => void) | undefined;
};

/**
 * Carries out what a machine emits: toasts through the page's `<Toaster>`, paths through the host's
 * router. Subscribed in a layout effect, before `useActorRef` starts the actor in a passive one, so
 * a notice emitted on the first transition is not lost.
 */
export function useAuthNotices(actorRef: NoticeSource, handlers: NoticeHandlers): void {
  const latest = useRef(handlers);
  useLayoutEffect(() => {
    latest.current = handlers;
  });
  useLayoutEffect(() => {
    const subscription = actorRef.on('*', (notice) => carryOut(notice, latest.current));
    return () => subscription.unsubscribe();
  }, [actorRef]);
}

function carryOut(notice: AuthNotice, handlers: NoticeHandlers): void {
  switch (notice.type) {
    case 'notify':
      showNotice(notice);
      return;
    case 'toast.loading':
      toast.loading(notice.message, { id: notice.id, duration: notice.duration });
      return;
    case 'toast.dismiss':
      toast.dismiss(notice.id);
      return;
    case 'route.navigate':
      handlers.onNavigate?.(notice.path);
      return;
    case 'page.redirect':
      handlers.redirect?.(notice.url);
      return;
  }
}
