import { useState } from 'react';
import { useSearchParams } from 'wouter';
import { useAuth } from 'ayah-coach/auth';
import { Chat, ChatSidebar } from 'ayah-coach/chat';
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
import { UserMenu } from '../layout/UserMenu';
import { useMediaQuery } from '../layout/use-media-query';
import { PageHeader } from '../layout/AppShell';

const MenuIcon = createIcon('MenuIcon', <path d="M4 6h16M4 12h16M4 18h16" />);

/** /assistant and /assistant?sessionId=…: the chat with its sidebar (a drawer on small screens). */
export default function Page() {
  const api = useApi();
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Tailwind's md breakpoint (48rem), where the sidebar leaves the drawer for the page.
  const wide = useMediaQuery('(min-width: 48rem)');
  const sessionId = params.get('sessionId');

  const openSession = (id: string | null) => {
    setParams(id ? { sessionId: id } : {}, { replace: true });
    setDrawerOpen(false);
  };

  // In the drawer the sidebar's collapse button closes the drawer instead (it has no rail to become).
  const sidebar = (drawer: boolean) => (
    <ChatSidebar
      {...(drawer && {
        collapsed: false,
        onCollapsedChange: (collapsed: boolean) => collapsed && setDrawerOpen(false),
      })}
      adapter={api.chat}
      activeSessionId={sessionId}
      onNewChat={() => openSession(null)}
      onSelectSession={openSession}
      onSessionRemoved={(id) => id === sessionId && openSession(null)}
      goalsHref="/goal"
      userMenu={<UserMenu />}
      className="ay:h-full"
    />
  );

  return (
    <div className="ay:flex ay:h-full ay:min-h-0 ay:flex-1">
      {/* Mounted only where shown: on a phone the drawer holds the one sidebar. */}
      {wide && <div className="ay:hidden ay:md:flex">{sidebar(false)}</div>}
      <div className="ay:flex ay:min-w-0 ay:flex-1 ay:flex-col">
        <PageHeader className="ay:flex ay:items-center ay:gap-2 ay:border-b ay:border-border ay:px-3 ay:py-2 ay:md:hidden">
          <Button
            variant="ghost"
            size="icon"
            aria-label="Open chats menu"
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
          >
            <MenuIcon className="ay:size-5" />
          </Button>
          <h1 className="ay:truncate ay:text-base ay:font-semibold">
            {sessionId ? 'Chat' : 'Ayah'}
          </h1>
        </PageHeader>
        {/* On a wide screen the design shows no title: the page's h1 is for screen readers. */}
        {wide && <h1 className="ay:sr-only">Chat with Ayah</h1>}
        <Chat
          adapter={api.chat}
          user={user}
          sessionId={sessionId}
          onSessionChange={(id) => openSession(id)}
          className="ay:min-h-0 ay:flex-1"
        />
      </div>
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
    </div>
  );
}
