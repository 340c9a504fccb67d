import type { ReactNode, Ref } from 'react';

import { cn } from '../lib/cn';
import { Button, buttonVariants } from '../ui/button';
import { followLink } from '../ui/follow-link';
import { AyahLogo } from '../ui/logo';
import { VisuallyHidden } from '../ui/visually-hidden';
import { NewChatIcon, PanelLeftIcon, SearchIcon, TargetIcon } from './chat-icons';
import { preloadSearch } from './sidebar.dialogs';

export interface SidebarNavProps {
  collapsed: boolean;
  /** The id of the chat list, which the toggle shows and hides. */
  listId: string;
  goalsHref: string;
  onNavigate: ((href: string) => void) | undefined;
  onToggle: () => void;
  onNewChat: (() => void) | undefined;
  onSearch: () => void;
  newChatRef: Ref<HTMLButtonElement>;
}

/** The top of the sidebar: the collapse toggle, New Chat, Search Chats and the Goals link. */
export function SidebarNav({
  collapsed,
  listId,
  goalsHref,
  onNavigate,
  onToggle,
  onNewChat,
  onSearch,
  newChatRef,
}: SidebarNavProps) {
  const item = cn(
    buttonVariants({ variant: 'ghost', size: 'md' }),
    'ay:w-full ay:justify-start ay:px-3',
    collapsed && 'ay:justify-center ay:px-0',
  );
  return (
    <div className="ay:flex ay:flex-col ay:gap-1 ay:p-2">
      <div className="ay:flex ay:items-center ay:justify-between ay:gap-2">
        {!collapsed && (
          <span className="ay:flex ay:items-center ay:gap-2 ay:px-2 ay:text-base ay:font-semibold">
            <AyahLogo className="ay:size-7" />
            Ayah
          </span>
        )}
        <Button
          variant="ghost"
          size="icon"
          aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          aria-expanded={!collapsed}
          aria-controls={collapsed ? undefined : listId}
          onClick={onToggle}
          className="ay:size-10"
        >
          <PanelLeftIcon />
        </Button>
      </div>
      <Button ref={newChatRef} variant="ghost" className={item} onClick={onNewChat}>
        <NewChatIcon />
        <Label collapsed={collapsed}>New Chat</Label>
      </Button>
      <Button
        variant="ghost"
        className={item}
        onClick={onSearch}
        // The search dialog's code starts loading as the pointer or focus arrives, before the click.
        onPointerEnter={preloadSearch}
        onFocus={preloadSearch}
        aria-haspopup="dialog"
      >
        <SearchIcon />
        <Label collapsed={collapsed}>Search Chats</Label>
      </Button>
      <a href={goalsHref} className={item} onClick={(event) => followLink(event, onNavigate)}>
        <TargetIcon />
        <Label collapsed={collapsed}>Goals</Label>
      </a>
    </div>
  );
}

// Collapsed, the labels stay for screen readers: the icons alone would leave the controls unnamed.
function Label({ collapsed, children }: { collapsed: boolean; children: ReactNode }) {
  return collapsed ? <VisuallyHidden>{children}</VisuallyHidden> : <span>{children}</span>;
}
