import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';

import { sessionTitle } from '../lib/chat';
import { REFRESH_CHAT_HISTORY_EVENT } from '../lib/messages';
import { showNotice } from '../ui/toast';
import type { ChatActorRef } from './chat-context';

type Options = {
  sessionId: string | null;
  onSessionChange: ((sessionId: string | null) => void) | undefined;
  dashboardData: Record<string, unknown> | undefined;
  onTitleChange: ((title: string | null) => void) | undefined;
};

/**
 * Carries out what the conversation asks of the page (toasts, the URL, the chat lists) and keeps it in
 * step with the props: a new `sessionId` opens that session, removing it starts a new conversation.
 */
export function useChatEffects(
  actor: ChatActorRef,
  { sessionId, onSessionChange, dashboardData, onTitleChange }: Options,
) {
  useTitleReport(actor, onTitleChange);

  const latest = useRef({ sessionId, onSessionChange });
  useEffect(() => {
    latest.current = { sessionId, onSessionChange };
  });

  useEffect(() => {
    const subscriptions = [
      actor.on('notify', showNotice),
      actor.on('session.changed', (event) => {
        if (event.sessionId !== latest.current.sessionId) {
          latest.current.onSessionChange?.(event.sessionId);
        }
      }),
      actor.on('history.refresh', () => {
        window.dispatchEvent(new Event(REFRESH_CHAT_HISTORY_EVENT));
      }),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [actor]);

  const previous = useRef(sessionId);
  useEffect(() => {
    const before = previous.current;
    previous.current = sessionId;
    if (before === sessionId) return;
    const current = actor.getSnapshot().context.sessionId;
    if (sessionId !== null && sessionId !== current) {
      actor.send({ type: 'session.open', sessionId });
    } else if (sessionId === null && before === current) {
      // The page removed the parameter of the conversation shown: start a new one.
      actor.send({ type: 'session.new' });
    }
  }, [actor, sessionId]);

  const firstData = useRef(dashboardData);
  useEffect(() => {
    if (dashboardData === firstData.current) return;
    firstData.current = dashboardData;
    actor.send({ type: 'dashboard.change', dashboardData: dashboardData ?? {} });
  }, [actor, dashboardData]);
}

/**
 * Tells the page the shown conversation's title: the saved one's, or for a conversation begun here
 * the title the server gives it from the first message (the shared rule); null before that.
 */
function useTitleReport(
  actor: ChatActorRef,
  onTitleChange: ((title: string | null) => void) | undefined,
) {
  const title = useSelector(actor, ({ context }) => {
    if (context.title !== null) return context.title;
    const first = context.messages.find((entry) => entry.role === 'user');
    return first ? sessionTitle(first.content) : null;
  });
  const latest = useRef(onTitleChange);
  useEffect(() => {
    latest.current = onTitleChange;
  });
  useEffect(() => latest.current?.(title), [title]);
}
