import { useSelector } from '@xstate/react';

import { ConfirmDialog } from '../ui/confirm-dialog';
import { isDeleting } from './sessions.selectors';
import { useSessionsActor } from './sidebar-context';

/** 'Delete chat?': open while the session list asks to confirm a delete. */
export function DeleteChatDialog() {
  const actor = useSessionsActor('DeleteChatDialog');
  const open = useSelector(actor, isDeleting);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const title = useSelector(actor, (s) => s.context.target?.title);

  return (
    <ConfirmDialog
      open={open}
      title="Delete chat?"
      description={title ? `“${title}” will be deleted permanently.` : undefined}
      confirmLabel="Delete"
      variant="destructive"
      busy={busy}
      onConfirm={() => actor.send({ type: 'delete.confirm' })}
      onCancel={() => actor.send({ type: 'delete.cancel' })}
    />
  );
}
