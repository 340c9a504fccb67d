import { useSelector } from '@xstate/react';
import { useRef } from 'react';

import { cn } from '../lib/cn';
import { Button } from '../ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu';
import { MoreHorizontalIcon, PencilIcon, TrashIcon } from '../ui/icons';
import { LoadingStatus, Skeleton } from '../ui/skeleton';
import type { ChatSession } from './chat.adapter';
import { ArchiveIcon } from './chat-icons';
import { preloadSessionDialogs } from './sidebar.dialogs';
import { useSessionsActor } from './sidebar-context';

export interface ChatSessionListProps {
  /** The conversation shown, marked current. */
  activeSessionId: string | null;
  onSelect: (sessionId: string) => void;
  /** Called with the options button a menu action was chosen from, to return focus to it. */
  onAction: (trigger: HTMLElement | null) => void;
  labelledBy: string;
}

/** The saved chats, newest first, each with its menu: Rename, Archive, Delete. */
export function ChatSessionList({
  activeSessionId,
  onSelect,
  onAction,
  labelledBy,
}: ChatSessionListProps) {
  const actor = useSessionsActor('ChatSessionList');
  const sessions = useSelector(actor, (s) => s.context.sessions);
  const loading = useSelector(actor, (s) => s.hasTag('loading'));

  if (loading && sessions.length === 0) {
    return (
      <LoadingStatus label="Loading chats…" className="ay:px-2">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="ay:h-8" />
        ))}
      </LoadingStatus>
    );
  }
  if (sessions.length === 0) {
    return <p className="ay:px-3 ay:py-2 ay:text-sm ay:text-muted-foreground">No chats yet</p>;
  }
  return (
    <ul aria-labelledby={labelledBy} className="ay:flex ay:flex-col ay:gap-0.5">
      {sessions.map((session) => (
        <SessionItem
          key={session.id}
          session={session}
          active={session.id === activeSessionId}
          onSelect={onSelect}
          onAction={onAction}
        />
      ))}
    </ul>
  );
}

function SessionItem({
  session,
  active,
  onSelect,
  onAction,
}: {
  session: ChatSession;
  active: boolean;
  onSelect: (sessionId: string) => void;
  onAction: (trigger: HTMLElement | null) => void;
}) {
  const actor = useSessionsActor('SessionItem');
  const sessionId = session.id;

  const triggerRef = useRef<HTMLButtonElement>(null);

  function choose(type: 'session.rename' | 'session.archive' | 'session.delete') {
    onAction(triggerRef.current);
    actor.send({ type, sessionId });
  }

  return (
    <li
      data-slot="chat-session"
      data-active={active || undefined}
      className={cn(
        'ay:group ay:flex ay:items-center ay:rounded-md ay:hover:bg-muted',
        active && 'ay:bg-muted',
      )}
    >
      <button
        type="button"
        aria-current={active ? 'page' : undefined}
        onClick={() => onSelect(sessionId)}
        className="ay:min-w-0 ay:flex-1 ay:truncate ay:rounded-md ay:px-3 ay:py-2 ay:text-left ay:text-sm"
      >
        {session.title}
      </button>
      <DropdownMenu onOpenChange={(open) => open && preloadSessionDialogs()}>
        <DropdownMenuTrigger asChild>
          <Button
            ref={triggerRef}
            variant="ghost"
            size="icon"
            aria-label={`Options for ${session.title}`}
            className="ay:size-8 ay:text-muted-foreground ay:hover:text-foreground"
          >
            <MoreHorizontalIcon />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => choose('session.rename')}>
            <PencilIcon />
            Rename
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => choose('session.archive')}>
            <ArchiveIcon />
            Archive
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem variant="destructive" onSelect={() => choose('session.delete')}>
            <TrashIcon />
            Delete
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </li>
  );
}
