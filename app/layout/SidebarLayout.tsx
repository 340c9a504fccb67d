import {
  Button,
  createIcon,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  lazyComponent,
  MountOnOpen,
  pageTitleClass,
  VisuallyHidden,
} from 'ayah-coach';
import { useAuth } from 'ayah-coach/auth';
import { ChatSidebar, type ChatSidebarProps } from 'ayah-coach/chat';
import { type ReactNode, useRef, useState } from 'react';
import { useLocation } from 'wouter';

import { useApi } from '../api';
import { PageHeader } from './AppShell';
import { useMediaQuery } from './use-media-query';
import { UserMenu } from './UserMenu';

const MenuIcon = createIcon('MenuIcon', <path d="M4 6h16M4 12h16M4 18h16" />);

const [SearchPopup, preloadSearchPopup] = lazyComponent(
  () => import('./SearchPopup'),
  'SearchPopup',
);

/** What a page tells the sidebar: which chat is current and what picking, starting or removing one does. */
export type SidebarActions = Pick<
  ChatSidebarProps,
  'activeSessionId' | 'onNewChat' | 'onSelectSession' | 'onSessionRemoved'
>;

export interface SidebarLayoutProps {
  /** The title in the phone's header, the page's h1 there (spec: mobile titles). */
  title: string;
  /** @default opening a chat or a new one goes to /assistant */
  sidebar?: SidebarActions;
  /** The page; as a function, told whether the sidebar is beside it (no phone header). */
  children: ReactNode | ((wide: boolean) => ReactNode);
}

/**
 * A page beside the app's chat sidebar: the sidebar in the page on wide screens, and on phones a header
 * with the menu button and the page's title, the sidebar opening as a drawer. Starting or opening a chat
 * from the drawer (its list or its search) closes the drawer. Signed out, the page stands alone under
 * its header.
 */
export function SidebarLayout({ title, sidebar: actions, children }: SidebarLayoutProps) {
  const api = useApi();
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const sidebar = actions ?? {
    onNewChat: () => navigate('/assistant'),
    onSelectSession: (id: string) => navigate(`/assistant?sessionId=${encodeURIComponent(id)}`),
  };
  const [drawerOpen, setDrawerOpen] = useState(false);
  // On a phone, Search Chats closes the drawer first, then searches over the page.
  const [searching, setSearching] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const wide = useWideLayout();
  const closing =
    <A extends unknown[]>(action: ((...args: A) => void) | undefined) =>
    (...args: A) => {
      setDrawerOpen(false);
      action?.(...args);
    };

  // In the drawer the sidebar's collapse button closes the drawer instead (it has no rail to become).
  const panel = (drawer: boolean) => (
    <ChatSidebar
      {...(drawer && {
        collapsed: false,
        onCollapsedChange: (collapsed: boolean) => collapsed && setDrawerOpen(false),
        onSearch: () => {
          setDrawerOpen(false);
          setSearching(true);
        },
      })}
      adapter={api.chat}
      activeSessionId={sidebar.activeSessionId}
      onNewChat={closing(sidebar.onNewChat)}
      onSelectSession={closing(sidebar.onSelectSession)}
      onSessionRemoved={sidebar.onSessionRemoved}
      goalsHref="/goal"
      onNavigate={closing(navigate)}
      userMenu={<UserMenu />}
      className="ay:h-full"
    />
  );

  return (
    <div className="ay:flex ay:h-full ay:min-h-0 ay:flex-1">
      {/* Mounted only where shown: on a phone the drawer holds the one sidebar. */}
      {user && wide && <div className="ay:hidden ay:md:flex">{panel(false)}</div>}
      <div className="ay:flex ay:min-w-0 ay:flex-1 ay:flex-col">
        <PageHeader className="ay:flex ay:items-center ay:gap-2 ay:border-b ay:border-border ay:px-3 ay:py-2 ay:md:hidden">
          {user && (
            <Button
              ref={menuButton}
              variant="ghost"
              size="icon"
              aria-label="Open chats menu"
              aria-expanded={drawerOpen}
              onClick={() => {
                setDrawerOpen(true);
                // The drawer's Search Chats opens the search over the page: its code loads meanwhile.
                preloadSearchPopup();
              }}
            >
              <MenuIcon className="ay:size-5" />
            </Button>
          )}
          <h1 className={`${pageTitleClass} ay:truncate`}>{title}</h1>
        </PageHeader>
        {typeof children === 'function' ? children(wide) : children}
      </div>
      {user && (
        <Dialog open={drawerOpen} onOpenChange={setDrawerOpen}>
          <DialogContent
            showCloseButton={false}
            className="ay:top-0 ay:left-0 ay:h-dvh ay:max-h-dvh ay:w-fit ay:max-w-[85vw] ay:translate-x-0 ay:translate-y-0 ay:rounded-none ay:p-0"
          >
            <VisuallyHidden>
              <DialogTitle>Chats</DialogTitle>
              <DialogDescription>Start a new chat, search or open a saved one.</DialogDescription>
            </VisuallyHidden>
            {panel(true)}
          </DialogContent>
        </Dialog>
      )}
      {user && (
        <MountOnOpen open={searching}>
          <SearchPopup
            open={searching}
            onOpenChange={(open) => {
              setSearching(open);
              // The Search button went with the drawer: focus returns to the button that opens it.
              if (!open) requestAnimationFrame(() => menuButton.current?.focus());
            }}
            onSelect={(session) => sidebar.onSelectSession?.(session.id)}
          />
        </MountOnOpen>
      )}
    </div>
  );
}

/**
 * Whether the page is wide enough to show the sidebar beside it (and no phone header): Tailwind's md
 * breakpoint (48rem), where the sidebar leaves the drawer for the page.
 */
export function useWideLayout() {
  return useMediaQuery('(min-width: 48rem)');
}
