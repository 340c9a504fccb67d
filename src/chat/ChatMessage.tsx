import { memo, useEffect, useState } from 'react';

import { cn } from '../lib/cn';
import { Button } from '../ui/button';
import { CheckIcon } from '../ui/icons';
import { toast } from '../ui/toast';
import { VisuallyHidden } from '../ui/visually-hidden';
import { AyahMark } from './AyahMark';
import type { ChatEntry } from './chat.thread';
import { CopyIcon, RetryIcon } from './chat-icons';
import { ReplyMarkdown } from './ReplyMarkdown';
import { Dots, ReplyActivity, TypingIndicator } from './TypingIndicator';

/** How long the copy button says 'Copied'. */
const COPIED_MS = 2000;

export interface ChatMessageProps {
  entry: ChatEntry;
  /** Offer Retry under this reply (a stopped one). @default undefined */
  onRetry?: () => void;
}

/** One message: the student's on the right, Ayah's on the left with the avatar. */
export const ChatMessage = memo(function ChatMessage({ entry, onRetry }: ChatMessageProps) {
  if (entry.role === 'user') {
    return (
      <div
        data-slot="chat-message"
        data-role="user"
        className="ay:group ay:flex ay:flex-col ay:items-end ay:gap-1"
      >
        <div className="ay:max-w-[85%] ay:rounded-xl ay:bg-secondary ay:px-4 ay:py-2.5 ay:text-secondary-foreground ay:whitespace-pre-wrap ay:break-words">
          <VisuallyHidden>You said: </VisuallyHidden>
          {entry.content}
        </div>
        <MessageActions entry={entry} />
      </div>
    );
  }

  const pending = entry.status === 'pending';
  const stopped = entry.status === 'stopped';
  return (
    <div
      data-slot="chat-message"
      data-role="assistant"
      data-status={entry.status}
      className="ay:group ay:flex ay:items-start ay:gap-3"
    >
      <AyahMark />
      <div className="ay:flex ay:min-w-0 ay:flex-1 ay:flex-col ay:gap-1 ay:pt-1">
        <VisuallyHidden>Ayah said: </VisuallyHidden>
        {pending ? (
          <TypingIndicator activity={entry.activity} />
        ) : (
          entry.content !== '' && (
            <ReplyMarkdown content={entry.content} streaming={entry.status === 'streaming'} />
          )
        )}
        {!pending && entry.activity && (
          <p className="ay:inline-flex ay:items-center ay:gap-2 ay:text-sm ay:text-muted-foreground">
            <Dots />
            <ReplyActivity text={entry.activity} />
          </p>
        )}
        {stopped && (
          <p className="ay:text-xs ay:text-muted-foreground ay:italic">
            {entry.content === '' ? 'You stopped this reply.' : 'Reply stopped.'}
          </p>
        )}
        <MessageActions entry={entry} onRetry={onRetry} />
      </div>
    </div>
  );
});

function MessageActions({ entry, onRetry }: ChatMessageProps) {
  const copyable =
    entry.content !== '' && (entry.status === 'complete' || entry.status === 'stopped');
  if (!copyable && !onRetry) return null;
  return (
    <div
      className={cn(
        'ay:flex ay:gap-1 ay:text-muted-foreground',
        entry.role === 'user' && 'ay:justify-end',
      )}
    >
      {copyable && <CopyButton text={entry.content} />}
      {onRetry && (
        <Button variant="ghost" size="sm" onClick={onRetry}>
          <RetryIcon />
          Retry
        </Button>
      )}
    </div>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toast.error('Could not copy the message');
    }
  }

  return (
    <Button
      variant="ghost"
      size="icon"
      className="ay:size-8"
      aria-label={copied ? 'Copied' : 'Copy message'}
      onClick={copy}
    >
      {copied ? <CheckIcon /> : <CopyIcon />}
    </Button>
  );
}
