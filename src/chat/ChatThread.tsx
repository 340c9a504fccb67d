import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useState } from 'react';

import { spokenText } from '../lib/spoken-text';
import { Button } from '../ui/button';
import { VisuallyHidden } from '../ui/visually-hidden';
import { useChatActor } from './chat-context';
import { ArrowDownIcon } from './chat-icons';
import { ChatMessage } from './ChatMessage';
import { useHistoryWindow } from './use-history-window';
import { useStickToBottom } from './use-stick-to-bottom';

const messageList = 'ay:flex ay:flex-col ay:gap-6';

/**
 * The conversation: a `role="log"` region that follows the reply as it grows. While a reply is on its
 * way the log is silent (`aria-busy`, `aria-live="off"`), so screen readers are not read every chunk;
 * the finished reply is announced once, through a separate polite status region.
 *
 * A long conversation opens on its last messages; older ones mount above as the reader scrolls up
 * (see useHistoryWindow), outside the live log, so loading history is not announced as news.
 */
export function ChatThread() {
  const actor = useChatActor('ChatThread');
  const messages = useSelector(actor, (s) => s.context.messages);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const canRetry = useSelector(actor, (s) => s.can({ type: 'message.retry' }));
  const { scrollRef, contentRef, following, scrollToEnd, onScroll, onWheel } =
    useStickToBottom(messages);
  const { first, liveFrom, sentinelRef, showEarlier } = useHistoryWindow(
    messages.length,
    scrollRef,
  );
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    // Heard as plain words: no `**`, backticks or raw LaTeX.
    const subscription = actor.on('reply.completed', ({ content }) =>
      setAnnouncement(spokenText(content)),
    );
    return () => subscription.unsubscribe();
  }, [actor]);

  // Sending brings the reader back to the end, to see the message and its reply.
  const sent = messages.at(-2)?.role === 'user' && messages.at(-1)?.status === 'pending';
  useEffect(() => {
    if (sent) scrollToEnd();
  }, [sent, scrollToEnd]);

  const retry = useCallback(() => actor.send({ type: 'message.retry' }), [actor]);
  const last = messages.at(-1);
  const retryable = canRetry && last?.status === 'stopped';

  return (
    <div data-slot="chat-thread" className="ay:relative ay:min-h-0 ay:flex-1">
      <div
        ref={scrollRef}
        data-slot="chat-scroller"
        onScroll={onScroll}
        onWheel={onWheel}
        className="ay:h-full ay:overflow-y-auto ay:overscroll-contain"
      >
        <div
          ref={contentRef}
          className="ay:mx-auto ay:flex ay:w-full ay:max-w-3xl ay:flex-col ay:gap-6 ay:px-4 ay:py-6"
        >
          {first > 0 && (
            <Button
              ref={sentinelRef}
              variant="ghost"
              size="sm"
              onClick={showEarlier}
              className="ay:self-center"
            >
              Show earlier messages
            </Button>
          )}
          {first < liveFrom && (
            <div data-slot="chat-history" className={messageList}>
              {messages.slice(first, liveFrom).map((entry) => (
                <ChatMessage key={entry.id} entry={entry} />
              ))}
            </div>
          )}
          <div
            role="log"
            aria-label="Conversation with Ayah"
            aria-live={busy ? 'off' : 'polite'}
            aria-busy={busy}
            className={messageList}
          >
            {messages.slice(liveFrom).map((entry) => (
              <ChatMessage
                key={entry.id}
                entry={entry}
                onRetry={retryable && entry === last ? retry : undefined}
              />
            ))}
          </div>
        </div>
      </div>
      {!following && (
        <Button
          variant="outline"
          size="icon"
          aria-label="Jump to latest message"
          onClick={scrollToEnd}
          className="ay:absolute ay:bottom-3 ay:left-1/2 ay:size-9 ay:-translate-x-1/2 ay:rounded-full ay:shadow-popover"
        >
          <ArrowDownIcon />
        </Button>
      )}
      <VisuallyHidden role="status" aria-live="polite" aria-atomic="true">
        {announcement}
      </VisuallyHidden>
    </div>
  );
}
