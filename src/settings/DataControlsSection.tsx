import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';

import { SETTINGS_MESSAGES } from '../lib/messages';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { LoadingStatus, Skeleton } from '../ui/skeleton';
import type { archiveMachine } from './archive.machine';
import { isConfirming, isListLoading, listFailed } from './archive.selectors';

export type ArchiveActorRef = ActorRefFrom<typeof archiveMachine>;

/** Data Controls: the archived chats (50 a page) with unarchive and delete; archive all, delete all. */
export function DataControlsSection({ actor }: { actor: ArchiveActorRef }) {
  const state = useSelector(actor, (snapshot) => snapshot);
  const { sessions, page, hasMore, target } = state.context;
  const headingId = useId();
  const busy = state.hasTag('busy');
  const confirming = (name: string) => isConfirming(state, name);
  const send = actor.send;

  return (
    <div className="ay:flex ay:flex-col ay:gap-4">
      <section aria-labelledby={headingId} className="ay:flex ay:flex-col ay:gap-2">
        <h2 id={headingId} className="ay:text-base ay:font-semibold">
          Archived chats
        </h2>
        {isListLoading(state) && sessions.length === 0 ? (
          <LoadingStatus label="Loading archived chats…">
            <Skeleton className="ay:h-10 ay:w-full" />
            <Skeleton className="ay:h-10 ay:w-full" />
          </LoadingStatus>
        ) : listFailed(state) ? (
          <div role="alert" className="ay:flex ay:items-center ay:gap-2 ay:text-sm">
            {SETTINGS_MESSAGES.archivedLoadFailed}
            <Button size="sm" variant="outline" onClick={() => send({ type: 'archive.refresh' })}>
              Try again
            </Button>
          </div>
        ) : sessions.length === 0 ? (
          <p className="ay:text-sm ay:text-muted-foreground">{SETTINGS_MESSAGES.noArchived}</p>
        ) : (
          <ul aria-labelledby={headingId} className="ay:flex ay:flex-col">
            {sessions.map((session) => (
              <li
                key={session.id}
                className="ay:flex ay:items-center ay:gap-2 ay:border-b ay:border-border ay:py-2 ay:last:border-b-0"
              >
                <span className="ay:min-w-0 ay:flex-1 ay:truncate ay:text-sm">{session.title}</span>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={busy}
                  aria-label={`Unarchive ${session.title}`}
                  onClick={() => send({ type: 'session.unarchive', sessionId: session.id })}
                >
                  Unarchive
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={busy}
                  aria-label={`Delete ${session.title}`}
                  onClick={() => send({ type: 'session.delete', sessionId: session.id })}
                >
                  Delete
                </Button>
              </li>
            ))}
          </ul>
        )}
        {(page > 1 || hasMore) && (
          <nav aria-label="Archived chat pages" className="ay:flex ay:items-center ay:gap-2">
            <Button
              size="sm"
              variant="outline"
              disabled={!state.can({ type: 'archive.previous' })}
              onClick={() => send({ type: 'archive.previous' })}
            >
              Previous
            </Button>
            <span className="ay:text-sm">Page {page}</span>
            <Button
              size="sm"
              variant="outline"
              disabled={!state.can({ type: 'archive.next' })}
              onClick={() => send({ type: 'archive.next' })}
            >
              Next
            </Button>
          </nav>
        )}
      </section>
      <div className="ay:flex ay:flex-wrap ay:gap-2">
        <Button variant="outline" disabled={busy} onClick={() => send({ type: 'all.archive' })}>
          Archive all chats
        </Button>
        <Button variant="destructive" disabled={busy} onClick={() => send({ type: 'all.delete' })}>
          Delete all chats
        </Button>
      </div>
      <ConfirmDialog
        open={confirming('deleting')}
        title="Delete archived chat?"
        description={`"${target?.title ?? ''}" will be deleted for good.`}
        confirmLabel="Delete"
        variant="destructive"
        busy={busy}
        onConfirm={() => send({ type: 'action.confirm' })}
        onCancel={() => send({ type: 'action.cancel' })}
      />
      <ConfirmDialog
        open={confirming('archivingAll')}
        title="Archive all chats?"
        description="Every chat moves to the archive. You can restore them here."
        confirmLabel="Archive all"
        busy={busy}
        onConfirm={() => send({ type: 'action.confirm' })}
        onCancel={() => send({ type: 'action.cancel' })}
      />
      <ConfirmDialog
        open={confirming('deletingAll')}
        title="Delete all chats?"
        description="Every chat, archived ones too, will be deleted for good."
        confirmLabel="Delete all"
        variant="destructive"
        busy={busy}
        onConfirm={() => send({ type: 'action.confirm' })}
        onCancel={() => send({ type: 'action.cancel' })}
      />
    </div>
  );
}
