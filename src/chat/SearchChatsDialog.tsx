import { useActorRef, useSelector } from '@xstate/react';
import { type KeyboardEvent, useEffect, useState } from 'react';

import { REFRESH_CHAT_HISTORY_EVENT } from '../lib/messages';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogTitle } from '../ui/dialog';
import { AyahRoot, type Theme } from '../ui/root';
import { Spinner } from '../ui/spinner';
import { showNotice } from '../ui/toast';
import type { ChatAdapter, ChatSearchHit, ChatSession } from './chat.adapter';
import { MessageIcon, SearchIcon } from './chat-icons';
import { searchLogic } from './search.machine';
import { foundNothing, isBlank } from './search.selectors';

export interface SearchChatsDialogProps {
  /** The backend: `createHttpApi(…).chat`, or a fake. */
  adapter: ChatAdapter;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called with the chat picked; the dialog then closes. */
  onSelect: (session: ChatSession) => void;
  /** @default the enclosing Ayah root's theme, else 'light' */
  theme?: Theme;
}

/**
 * The search modal: up to 10 recent chats while the query is blank, matches in titles and messages
 * while typing, archived chats among them (marked, with Unarchive). Arrow keys move between the
 * chats, Enter opens one, Escape closes.
 */
export function SearchChatsDialog({
  adapter,
  open,
  onOpenChange,
  onSelect,
  theme,
}: SearchChatsDialogProps) {
  return (
    <AyahRoot theme={theme} data-slot="search-chats" className="ay:contents">
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent
          aria-describedby={undefined}
          className="ay:max-w-[560px] ay:gap-3 ay:p-4 ay:sm:top-[15%] ay:sm:translate-y-0"
        >
          {/* Mounted per opening: every search starts blank. */}
          <SearchPanel
            adapter={adapter}
            onSelect={(session) => {
              onSelect(session);
              onOpenChange(false);
            }}
          />
        </DialogContent>
      </Dialog>
    </AyahRoot>
  );
}

function SearchPanel({
  adapter,
  onSelect,
}: {
  adapter: ChatAdapter;
  onSelect: (session: ChatSession) => void;
}) {
  const [logic] = useState(() => searchLogic(adapter));
  const actor = useActorRef(logic);
  const query = useSelector(actor, (s) => s.context.query);
  const results = useSelector(actor, (s) => s.context.results);
  const recent = useSelector(actor, (s) => s.context.recent);
  const searching = useSelector(actor, (s) => s.hasTag('typing'));
  const blank = useSelector(actor, isBlank);
  const none = useSelector(actor, foundNothing);
  const unarchiving = useSelector(actor, (s) => s.context.unarchiving);

  useEffect(() => {
    const subscriptions = [
      actor.on('notify', showNotice),
      // The sidebar's list gains the chat back.
      actor.on('session.unarchived', () =>
        window.dispatchEvent(new Event(REFRESH_CHAT_HISTORY_EVENT)),
      ),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [actor]);

  const status = searching
    ? 'Searching…'
    : none
      ? 'No chats found'
      : blank
        ? ''
        : `${results.length} ${results.length === 1 ? 'chat' : 'chats'} found`;

  return (
    <>
      <DialogTitle className="ay:pr-8">Search chats</DialogTitle>
      <div className="ay:relative">
        <SearchIcon className="ay:pointer-events-none ay:absolute ay:top-1/2 ay:left-3 ay:-translate-y-1/2 ay:text-muted-foreground" />
        <input
          type="search"
          aria-label="Search chats"
          placeholder="Search chats..."
          value={query}
          onChange={(event) => actor.send({ type: 'search.change', query: event.target.value })}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') moveFocus(event, 1);
          }}
          className="ay:block ay:h-10 ay:w-full ay:rounded-md ay:border ay:border-input ay:bg-background ay:pr-9 ay:pl-9 ay:text-sm ay:text-foreground ay:focus-visible:border-ring"
        />
        {searching && (
          <Spinner className="ay:absolute ay:top-1/2 ay:right-3 ay:-translate-y-1/2 ay:text-muted-foreground" />
        )}
      </div>
      <p role="status" className="ay:sr-only">
        {status}
      </p>
      <div className="ay:max-h-[360px] ay:min-h-[120px] ay:overflow-y-auto">
        {blank && (
          <SessionResults
            heading="Recent chats"
            sessions={recent}
            empty="No chats yet"
            onSelect={onSelect}
          />
        )}
        {!blank && !none && results.length > 0 && (
          <SessionResults
            heading="Results"
            sessions={results}
            onSelect={onSelect}
            unarchiving={unarchiving}
            onUnarchive={(sessionId) => actor.send({ type: 'result.unarchive', sessionId })}
          />
        )}
        {none && (
          <p className="ay:py-8 ay:text-center ay:text-sm ay:text-muted-foreground">
            No chats found
          </p>
        )}
      </div>
    </>
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

function SessionResults({
  heading,
  sessions,
  empty,
  onSelect,
  unarchiving = [],
  onUnarchive,
}: {
  heading: string;
  sessions: (ChatSession | ChatSearchHit)[];
  empty?: string;
  onSelect: (session: ChatSession) => void;
  unarchiving?: string[];
  onUnarchive?: (sessionId: string) => void;
}) {
  if (sessions.length === 0) {
    return empty ? (
      <p className="ay:py-8 ay:text-center ay:text-sm ay:text-muted-foreground">{empty}</p>
    ) : null;
  }
  return (
    <section aria-label={heading}>
      <h3 className="ay:px-2 ay:py-1 ay:text-xs ay:font-semibold ay:text-muted-foreground">
        {heading}
      </h3>
      <ul className="ay:flex ay:flex-col">
        {sessions.map((session) => (
          <li key={session.id} className="ay:flex ay:items-center ay:gap-1">
            <button
              type="button"
              data-search-item=""
              onClick={() => onSelect(session)}
              onKeyDown={(event) => {
                if (event.key === 'ArrowDown') moveFocus(event, 1);
                if (event.key === 'ArrowUp') moveFocus(event, -1);
              }}
              className="ay:flex ay:min-w-0 ay:flex-1 ay:items-center ay:gap-3 ay:rounded-md ay:px-2 ay:py-2 ay:text-left ay:text-sm ay:hover:bg-muted ay:focus-visible:bg-muted"
            >
              <MessageIcon className="ay:text-muted-foreground" />
              <span className="ay:min-w-0 ay:flex-1 ay:truncate">{session.title}</span>
              {'archived' in session && session.archived && (
                <span className="ay:shrink-0 ay:rounded-sm ay:bg-muted ay:px-1.5 ay:py-0.5 ay:text-xs ay:text-muted-foreground">
                  Archived
                </span>
              )}
              <span className="ay:shrink-0 ay:text-xs ay:text-muted-foreground">
                {formatDate(session.lastMessageAt)}
              </span>
            </button>
            {'archived' in session && session.archived && onUnarchive && (
              <Button
                variant="ghost"
                size="sm"
                loading={unarchiving.includes(session.id)}
                aria-label={`Unarchive ${session.title}`}
                onClick={() => onUnarchive(session.id)}
              >
                Unarchive
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

/** Arrow keys: from the input into the list, and along it; up from the first goes back to the input. */
function moveFocus(event: KeyboardEvent<HTMLElement>, step: 1 | -1) {
  const dialog = event.currentTarget.closest('[role="dialog"]');
  if (!dialog) return;
  const stops = [
    dialog.querySelector<HTMLElement>('input[type="search"]'),
    ...dialog.querySelectorAll<HTMLElement>('[data-search-item]'),
  ].filter((el): el is HTMLElement => el !== null);
  const next = stops[stops.indexOf(event.currentTarget) + step];
  if (!next) return;
  event.preventDefault();
  next.focus();
}
