import { useActorRef, useSelector } from '@xstate/react';
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';

import { cn } from '../lib/cn';
import { REFRESH_CHAT_HISTORY_EVENT } from '../lib/messages';
import { Button } from '../ui/button';
import { MountOnOpen } from '../ui/mount-on-open';
import { AyahRoot, type Theme } from '../ui/root';
import { showNotice, toast } from '../ui/toast';
import type { ChatAdapter } from './chat.adapter';
import { ChatSessionList } from './ChatSessionList';
import { sessionsLogic } from './sessions.machine';
import { isDeleting, isIdle, isRenaming } from './sessions.selectors';
import { DeleteChatDialog, RenameChatDialog, SearchChatsDialog } from './sidebar.dialogs';
import { SessionsActorProvider, type SessionsActorRef } from './sidebar-context';
import { SidebarNav } from './SidebarNav';

export interface ChatSidebarProps {
  /** The backend: `createHttpApi(…).chat`, or a fake. Read once, on mount. */
  adapter: ChatAdapter;
  /** The conversation shown, marked current in the list. @default null */
  activeSessionId?: string | null;
  /** New Chat: start a new conversation (e.g. remove `sessionId` from the URL). */
  onNewChat?: () => void;
  /** A chat was picked from the list or the search: open it (e.g. put it in the URL). */
  onSelectSession?: (sessionId: string) => void;
  /** A chat was archived or deleted; if it is the one shown, start a new conversation. */
  onSessionRemoved?: (sessionId: string) => void;
  /** Where the Goals link goes. @default '/goal' */
  goalsHref?: string;
  /**
   * Client-side navigation for the sidebar's links (e.g. your router's `navigate`). Without it a click
   * loads the page; a click with a modifier key always stays the browser's. @default undefined
   */
  onNavigate?: (href: string) => void;
  /**
   * Search Chats opens the host's search (e.g. a `SearchChatsDialog` of its own, once a drawer holding
   * the sidebar has closed) instead of the sidebar's. @default undefined: the sidebar's own search
   */
  onSearch?: () => void;
  /** The user menu (Profile Settings, Sign Out, the wallet), shown at the bottom. @default undefined */
  userMenu?: ReactNode;
  /** Collapsed to icons (controlled). @default undefined */
  collapsed?: boolean;
  /** Collapsed to icons at first (uncontrolled). @default false */
  defaultCollapsed?: boolean;
  onCollapsedChange?: (collapsed: boolean) => void;
  /** @default the enclosing Ayah root's theme, else 'light' */
  theme?: Theme;
  className?: string;
}

/**
 * The chat sidebar: New Chat, Search Chats, the Goals link, the saved chats with their menu (Rename,
 * Archive, Delete after confirming) and the user menu. It collapses to a rail of icons, and reloads
 * its list on the window event 'refresh-chat-history'.
 */
export function ChatSidebar({
  adapter,
  activeSessionId = null,
  onNewChat,
  onSelectSession,
  onSessionRemoved,
  goalsHref = '/goal',
  onNavigate,
  onSearch,
  userMenu,
  collapsed: collapsedProp,
  defaultCollapsed = false,
  onCollapsedChange,
  theme,
  className,
}: ChatSidebarProps) {
  const [logic] = useState(() => sessionsLogic(adapter));
  const actor = useActorRef(logic);
  const [ownCollapsed, setOwnCollapsed] = useState(defaultCollapsed);
  const collapsed = collapsedProp ?? ownCollapsed;
  const [searching, setSearching] = useState(false);
  const headingId = useId();
  const listId = useId();
  const restoreFocus = useFocusReturn(actor);
  const renaming = useSelector(actor, isRenaming);
  const deleting = useSelector(actor, isDeleting);

  useSidebarEffects(actor, onSessionRemoved);

  function toggle() {
    setOwnCollapsed(!collapsed);
    onCollapsedChange?.(!collapsed);
  }

  return (
    <AyahRoot
      theme={theme}
      data-slot="chat-sidebar"
      data-collapsed={collapsed || undefined}
      className={cn(
        'ay:flex ay:h-full ay:shrink-0 ay:flex-col ay:border-r ay:border-border ay:bg-surface',
        collapsed ? 'ay:w-[60px]' : 'ay:w-[260px]',
        className,
      )}
    >
      <SessionsActorProvider value={actor}>
        <nav aria-label="Sidebar" className="ay:flex ay:min-h-0 ay:flex-1 ay:flex-col">
          <SidebarNav
            collapsed={collapsed}
            listId={listId}
            goalsHref={goalsHref}
            onNavigate={onNavigate}
            onToggle={toggle}
            onNewChat={onNewChat}
            onSearch={onSearch ?? (() => setSearching(true))}
            newChatRef={restoreFocus.fallbackRef}
          />
          {!collapsed && (
            <section
              id={listId}
              aria-labelledby={headingId}
              className="ay:flex ay:min-h-0 ay:flex-1 ay:flex-col ay:gap-1 ay:px-2 ay:pt-4"
            >
              <h2
                id={headingId}
                className="ay:px-3 ay:text-xs ay:font-semibold ay:text-muted-foreground"
              >
                Chats
              </h2>
              <div className="ay:min-h-0 ay:flex-1 ay:overflow-y-auto">
                <ChatSessionList
                  activeSessionId={activeSessionId}
                  labelledBy={headingId}
                  onSelect={(id) => onSelectSession?.(id)}
                  onAction={restoreFocus.remember}
                />
              </div>
            </section>
          )}
          {collapsed && <div className="ay:flex-1" />}
        </nav>
        {userMenu && (
          <div data-slot="chat-sidebar-user" className="ay:border-t ay:border-border ay:p-2">
            {userMenu}
          </div>
        )}
        <MountOnOpen open={renaming}>
          <RenameChatDialog onClosed={restoreFocus.restore} />
        </MountOnOpen>
        <MountOnOpen open={deleting}>
          <DeleteChatDialog />
        </MountOnOpen>
      </SessionsActorProvider>
      <MountOnOpen open={searching}>
        <SearchChatsDialog
          adapter={adapter}
          open={searching}
          onOpenChange={setSearching}
          onSelect={(session) => onSelectSession?.(session.id)}
        />
      </MountOnOpen>
    </AyahRoot>
  );
}

/** How long an archive's toast, and its Undo, stays. */
const ARCHIVE_UNDO_MS = 4000;

function useSidebarEffects(
  actor: SessionsActorRef,
  onSessionRemoved: ((sessionId: string) => void) | undefined,
) {
  const latest = useRef(onSessionRemoved);
  useEffect(() => {
    latest.current = onSessionRemoved;
  });

  useEffect(() => {
    const refresh = () => actor.send({ type: 'sessions.refresh' });
    window.addEventListener(REFRESH_CHAT_HISTORY_EVENT, refresh);
    const subscriptions = [
      actor.on('notify', ({ tone, message, undo }) => {
        if (tone === 'error' || !undo) return showNotice({ tone, message });
        // An archive can be undone for as long as its toast shows.
        return toast.success(
          (t) => (
            <span className="ay:flex ay:items-center ay:gap-3">
              {message}
              <Button
                variant="outline"
                size="sm"
                onClick={() => {
                  toast.dismiss(t.id);
                  actor.send({ type: 'session.unarchive', sessionId: undo });
                }}
              >
                Undo
              </Button>
            </span>
          ),
          { duration: ARCHIVE_UNDO_MS },
        );
      }),
      actor.on('session.removed', ({ sessionId }) => latest.current?.(sessionId)),
    ];
    return () => {
      window.removeEventListener(REFRESH_CHAT_HISTORY_EVENT, refresh);
      subscriptions.forEach((subscription) => subscription.unsubscribe());
    };
  }, [actor]);
}

/**
 * A chat's dialogs open from its menu, whose item is gone by the time they close: focus goes back to
 * the chat's options button, or to New Chat when the chat itself is gone.
 */
function useFocusReturn(actor: SessionsActorRef) {
  const trigger = useRef<HTMLElement | null>(null);
  const fallbackRef = useRef<HTMLButtonElement>(null);
  const idle = useSelector(actor, isIdle);

  const restore = useCallback(() => {
    const target = trigger.current?.isConnected ? trigger.current : fallbackRef.current;
    target?.focus();
  }, []);

  // After the delete dialog or an archive, once the dialog has let go of focus.
  useEffect(() => {
    if (!idle || !trigger.current) return;
    const frame = requestAnimationFrame(() => {
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost) restore();
    });
    return () => cancelAnimationFrame(frame);
  }, [idle, restore]);

  const remember = useCallback((element: HTMLElement | null) => {
    trigger.current = element;
  }, []);

  return { remember, restore, fallbackRef };
}
