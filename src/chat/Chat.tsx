import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';

import { cn } from '../lib/cn';
import { AUTH } from '../lib/limits';
import { GUEST_MESSAGES } from '../lib/messages';
import { Button } from '../ui/button';
import { AyahRoot, type Theme } from '../ui/root';
import { LoadingStatus, Skeleton } from '../ui/skeleton';
import { whenIdle } from '../ui/when-idle';
import { AyahMark } from './AyahMark';
import type { ChatAdapter } from './chat.adapter';
import { chatLogic } from './chat.machine';
import { browserChatStore, type ChatStore } from './chat.store';
import { ChatActorProvider, useChatActor } from './chat-context';
import { ChatComposer } from './ChatComposer';
import { ChatThread } from './ChatThread';
import { preloadMarkdown } from './ReplyMarkdown';
import { useChatEffects } from './use-chat-effects';

export interface ChatProps {
  /** The backend: `createHttpApi(…).chat`, or a fake in stories and tests. Read once, on mount. */
  adapter: ChatAdapter;
  /**
   * The signed-in user: their last conversation is restored (when the URL names none) and remembered
   * under their id. The guest (`guest-user`) is asked to sign in.
   * @default null
   */
  user?: { id: string } | null;
  /** The `sessionId` URL parameter: opens that saved conversation. @default null */
  sessionId?: string | null;
  /**
   * Called when the conversation's id should be put in the URL (after its first reply), or removed
   * from it (`null`, a new conversation).
   */
  onSessionChange?: (sessionId: string | null) => void;
  /**
   * Called with the shown conversation's title when it changes (null for a new conversation before
   * its first message), e.g. for a phone's header.
   */
  onTitleChange?: (title: string | null) => void;
  /** Context for the tutor sent with every message (the points context's tokens). @default {} */
  dashboardData?: Record<string, unknown>;
  /** Where the last conversation per user is remembered. Read once, on mount. @default browserChatStore() */
  store?: ChatStore;
  /** Shows a Sign in button to the guest. @default undefined */
  onSignIn?: () => void;
  /**
   * Focus the message input as the chat mounts. The host app turns it on; an embed leaves it off so
   * the portal's keyboard and screen-reader users keep their place.
   * @default false
   */
  focusOnMount?: boolean;
  /** @default the enclosing Ayah root's theme, else 'light' */
  theme?: Theme;
  className?: string;
}

/** Ayah's chat: the conversation with the tutor, its input and its states. */
export function Chat({ adapter, user, theme, className, onSignIn, ...props }: ChatProps) {
  const userId = user?.id ?? null;
  return (
    <AyahRoot
      theme={theme}
      data-slot="chat"
      className={cn('ay:flex ay:h-full ay:min-h-0 ay:flex-col', className)}
    >
      {userId === AUTH.guestUserId ? (
        <GuestNotice onSignIn={onSignIn} />
      ) : (
        // Another user is another conversation.
        <Conversation key={userId ?? ''} adapter={adapter} userId={userId} {...props} />
      )}
    </AyahRoot>
  );
}

type ConversationProps = Pick<
  ChatProps,
  | 'adapter'
  | 'sessionId'
  | 'onSessionChange'
  | 'onTitleChange'
  | 'dashboardData'
  | 'store'
  | 'focusOnMount'
> & { userId: string | null };

function Conversation({
  adapter,
  userId,
  sessionId = null,
  onSessionChange,
  onTitleChange,
  dashboardData,
  store,
  focusOnMount = false,
}: ConversationProps) {
  const [logic] = useState(() => chatLogic(adapter, store ?? browserChatStore()));
  const actor = useActorRef(logic, { input: { userId, sessionId, dashboardData } });
  useChatEffects(actor, { sessionId, onSessionChange, onTitleChange, dashboardData });
  // The markdown renderer, before a reply can arrive but not during the first render (on slow 4G its
  // 51 kB would take a quarter of a second from it): as the student is about to write (the composer
  // focused), as a message goes, or a second after the chat shows once the browser is idle, whichever
  // comes first. A restored reply asks for it at once.
  const replying = useSelector(actor, (s) => s.hasTag('waiting') || s.hasTag('streaming'));
  useEffect(() => whenIdle(preloadMarkdown, 1000), []);
  useEffect(() => {
    if (replying) preloadMarkdown();
  }, [replying]);

  return (
    <ChatActorProvider value={actor}>
      <ChatLayout focusOnMount={focusOnMount} />
    </ChatActorProvider>
  );
}

function ChatLayout({ focusOnMount }: { focusOnMount: boolean }) {
  const actor = useChatActor('ChatLayout');
  const view = useSelector(actor, (s) => {
    if (s.hasTag('loading')) return 'loading';
    return s.context.messages.length === 0 ? 'empty' : 'thread';
  });

  // The composer keeps its place in the tree in every view, so sending from the empty chat keeps focus.
  return (
    <>
      {view === 'loading' && <LoadingConversation />}
      {view === 'empty' && <EmptyChat />}
      {view === 'thread' && <ChatThread />}
      <div
        className={cn(
          'ay:mx-auto ay:w-full ay:max-w-3xl ay:px-4',
          view === 'empty' ? 'ay:flex-1' : 'ay:pb-3',
        )}
      >
        <ChatComposer focusOnMount={focusOnMount} />
      </div>
    </>
  );
}

function LoadingConversation() {
  return (
    <LoadingStatus
      label="Loading conversation..."
      showLabel
      className="ay:mx-auto ay:w-full ay:max-w-3xl ay:flex-1 ay:gap-4 ay:px-4 ay:py-6"
    >
      <Skeleton className="ay:ml-auto ay:h-10 ay:w-2/5 ay:rounded-xl" />
      <div className="ay:flex ay:gap-3">
        <Skeleton className="ay:size-8 ay:rounded-full" />
        <div className="ay:flex ay:flex-1 ay:flex-col ay:gap-2">
          <Skeleton className="ay:h-4 ay:w-4/5" />
          <Skeleton className="ay:h-4 ay:w-3/5" />
        </div>
      </div>
    </LoadingStatus>
  );
}

function EmptyChat() {
  return (
    <div className="ay:flex ay:flex-1 ay:flex-col ay:items-center ay:justify-end ay:gap-3 ay:px-4 ay:pb-6 ay:text-center">
      <AyahMark size="lg" />
      <h2 className="ay:text-2xl ay:font-semibold">Ready to learn together?</h2>
      <p className="ay:max-w-md ay:text-sm ay:text-muted-foreground">
        Set learning goals, track your progress and get AI-powered tutoring, one question at a time.
      </p>
    </div>
  );
}

function GuestNotice({ onSignIn }: { onSignIn: (() => void) | undefined }) {
  return (
    <div className="ay:flex ay:flex-1 ay:flex-col ay:items-center ay:justify-center ay:gap-4 ay:p-6 ay:text-center">
      <AyahMark size="lg" />
      <p className="ay:text-base">{GUEST_MESSAGES.signInRequired}</p>
      {onSignIn && <Button onClick={onSignIn}>Sign in</Button>}
    </div>
  );
}
