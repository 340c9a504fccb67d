import { useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useAuth } from 'ayah-coach/auth';
import { ChatSidebar } from 'ayah-coach/chat';
import {
  Button,
  createIcon,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  VisuallyHidden,
} from 'ayah-coach';
import { useApi } from '../api';
import { PageHeader } from './AppShell';
import { UserMenu } from './UserMenu';
import { useMediaQuery } from './use-media-query';

const MenuIcon = createIcon('MenuIcon', <path d="M4 6h16M4 12h16M4 18h16" />);

/**
 * A page beside the app's sidebar (a drawer on phones, under a header with the page's mobile title,
 * spec: Sidebar and header). Signed out, the page stands alone under its header.
 */
export function SidebarLayout({
  title,
  children,
}: {
  /** The mobile header's title, the page's h1 on phones. */
  title: string;
  children: (wide: boolean) => ReactNode;
}) {
  const api = useApi();
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const wide = useMediaQuery('(min-width: 48rem)');

  const sidebar = (drawer: boolean) => (
    <ChatSidebar
      {...(drawer && {
        collapsed: false,
        onCollapsedChange: (collapsed: boolean) => collapsed && setDrawerOpen(false),
      })}
      adapter={api.chat}
      onNewChat={() => navigate('/assistant')}
      onSelectSession={(id) => navigate(`/assistant?sessionId=${encodeURIComponent(id)}`)}
      goalsHref="/goal"
      userMenu={<UserMenu />}
      className="ay:h-full"
    />
  );

  return (
    <div className="ay:flex ay:h-full ay:min-h-0 ay:flex-1">
      {user && wide && <div className="ay:hidden ay:md:flex">{sidebar(false)}</div>}
      <div className="ay:flex ay:min-w-0 ay:flex-1 ay:flex-col">
        <PageHeader className="ay:flex ay:items-center ay:gap-2 ay:border-b ay:border-border ay:px-3 ay:py-2 ay:md:hidden">
          {user && (
            <Button
              variant="ghost"
              size="icon"
              aria-label="Open chats menu"
              aria-expanded={drawerOpen}
              onClick={() => setDrawerOpen(true)}
            >
              <MenuIcon className="ay:size-5" />
            </Button>
          )}
          <h1 className="ay:truncate ay:text-base ay:font-semibold">{title}</h1>
        </PageHeader>
        <div className="ay:flex ay:min-h-0 ay:flex-1 ay:justify-center ay:overflow-y-auto">
          {children(wide)}
        </div>
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
            {sidebar(true)}
          </DialogContent>
        </Dialog>
      )}
    </div>
  );
}
