import { useSelector } from '@xstate/react';
import {
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useRef,
} from 'react';

import { clampMessage, exceedsMessageLimit } from '../lib/chat';
import { cn } from '../lib/cn';
import { Button } from '../ui/button';
import { AlertCircleIcon } from '../ui/icons';
import { useChatActor } from './chat-context';
import { ArrowUpIcon, RetryIcon, StopIcon } from './chat-icons';
import { preloadMarkdown } from './ReplyMarkdown';

/** The line under the input (spec section 1). */
export const CHAT_DISCLAIMER = 'Ayah can make mistakes. Check important info.';

export interface ChatComposerProps {
  /**
   * Focus the input as it mounts (when nothing else has focus and not on a touch screen). Off for an
   * embed, where it would take a portal's keyboard and screen-reader users from their place.
   * @default false
   */
  focusOnMount?: boolean;
  className?: string;
}

/**
 * The message input. Enter sends, Shift+Enter starts a new line. While a reply is awaited the input
 * is read-only (it keeps focus) and the send button turns into Stop.
 */
export function ChatComposer({ focusOnMount = false, className }: ChatComposerProps) {
  const actor = useChatActor('ChatComposer');
  const draft = useSelector(actor, (s) => s.context.draft);
  const failed = useSelector(actor, (s) => s.context.failed);
  const locked = useSelector(actor, (s) => s.hasTag('busy') || s.hasTag('loading'));
  const canSend = useSelector(actor, (s) => s.can({ type: 'message.send' }));
  const canStop = useSelector(actor, (s) => s.can({ type: 'message.stop' }));
  const canRetry = useSelector(actor, (s) => s.can({ type: 'message.retry' }));
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const disclaimerId = useId();

  function act(type: 'message.send' | 'message.stop' | 'message.retry') {
    actor.send({ type });
    inputRef.current?.focus();
  }

  // Ready to type on arrival where the host asks for it, unless the reader is already elsewhere or on
  // a touch screen (where focus would throw up the keyboard over the page).
  useEffect(() => {
    if (!focusOnMount) return;
    const idle = document.activeElement === null || document.activeElement === document.body;
    const touch = globalThis.matchMedia?.('(pointer: coarse)').matches ?? false;
    if (idle && !touch) inputRef.current?.focus({ preventScroll: true });
  }, [focusOnMount]);

  // A paste past the limit keeps its first 4000 characters (and the spec's toast says why).
  function onPaste(event: ClipboardEvent<HTMLTextAreaElement>) {
    const input = event.currentTarget;
    const pasted = event.clipboardData.getData('text');
    const next =
      input.value.slice(0, input.selectionStart) + pasted + input.value.slice(input.selectionEnd);
    if (!exceedsMessageLimit(next)) return;
    event.preventDefault();
    actor.send({ type: 'draft.change', text: next });
    actor.send({ type: 'draft.change', text: clampMessage(next) });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (canStop) act('message.stop');
    else if (canSend) act('message.send');
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (canSend) act('message.send');
  }

  return (
    <div
      data-slot="chat-composer"
      className={cn('ay:flex ay:w-full ay:flex-col ay:gap-2', className)}
    >
      {failed !== null && canRetry && (
        <div className="ay:flex ay:items-center ay:gap-2 ay:rounded-md ay:border ay:border-destructive ay:px-3 ay:py-2 ay:text-sm">
          <AlertCircleIcon className="ay:text-destructive" />
          <p className="ay:min-w-0 ay:flex-1 ay:truncate">
            Not sent: <span className="ay:text-muted-foreground">{failed}</span>
          </p>
          <Button variant="outline" size="sm" onClick={() => act('message.retry')}>
            <RetryIcon />
            Retry
          </Button>
        </div>
      )}
      <form
        onSubmit={submit}
        className="ay:flex ay:items-end ay:gap-2 ay:rounded-xl ay:border ay:border-input ay:bg-background ay:p-2 ay:focus-within:border-ring ay:focus-within:ring-1 ay:focus-within:ring-ring"
      >
        <textarea
          ref={inputRef}
          data-slot="chat-input"
          aria-label="Message Ayah"
          aria-describedby={disclaimerId}
          placeholder="Message Ayah"
          rows={1}
          value={draft}
          readOnly={locked}
          aria-disabled={locked || undefined}
          onChange={(event) => actor.send({ type: 'draft.change', text: event.target.value })}
          // About to write: the reply's renderer starts loading (Chat.tsx).
          onFocus={preloadMarkdown}
          onKeyDown={onKeyDown}
          onPaste={locked ? undefined : onPaste}
          className={cn(
            'ay:max-h-[200px] ay:min-h-10 ay:flex-1 ay:resize-none ay:bg-transparent ay:px-2 ay:py-2',
            'ay:text-sm ay:text-foreground ay:outline-none ay:field-sizing-content',
            'ay:placeholder:text-muted-foreground ay:aria-disabled:cursor-not-allowed',
          )}
        />
        {/* One button that changes role, so focus stays on it between Send and Stop. */}
        <Button
          type="submit"
          size="icon"
          variant={canStop ? 'outline' : 'default'}
          aria-label={canStop ? 'Stop reply' : 'Send message'}
          disabled={!canStop && !canSend}
          className="ay:rounded-full ay:size-10"
        >
          {canStop ? <StopIcon className="ay:fill-current" /> : <ArrowUpIcon />}
        </Button>
      </form>
      <p id={disclaimerId} className="ay:text-center ay:text-xs ay:text-muted-foreground">
        {CHAT_DISCLAIMER}
      </p>
    </div>
  );
}
