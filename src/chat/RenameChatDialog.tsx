import { useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';

import { CHAT } from '../lib/limits';
import { Button } from '../ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../ui/dialog';
import { Field } from '../ui/field';
import { Input } from '../ui/input';
import { isRenaming } from './sessions.selectors';
import { useSessionsActor } from './sidebar-context';

/** The rename dialog, open while the session list is renaming a chat. */
export function RenameChatDialog({ onClosed }: { onClosed: () => void }) {
  const actor = useSessionsActor('RenameChatDialog');
  const open = useSelector(actor, isRenaming);
  const saving = useSelector(actor, (s) => s.hasTag('busy'));
  const target = useSelector(actor, (s) => s.context.target);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !saving) actor.send({ type: 'rename.cancel' });
      }}
    >
      <DialogContent
        aria-describedby={undefined}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          onClosed();
        }}
        onEscapeKeyDown={(event) => {
          if (saving) event.preventDefault();
        }}
      >
        {/* Keyed by chat: the field starts from the current name each time. */}
        {target && <RenameForm key={target.id} title={target.title} saving={saving} />}
      </DialogContent>
    </Dialog>
  );
}

function RenameForm({ title: current, saving }: { title: string; saving: boolean }) {
  const actor = useSessionsActor('RenameForm');
  const [title, setTitle] = useState(current);
  const canSave = useSelector(actor, (s) => s.can({ type: 'rename.save', title }));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (canSave) actor.send({ type: 'rename.save', title });
  }

  return (
    <form onSubmit={submit} className="ay:grid ay:gap-4">
      <DialogHeader>
        <DialogTitle>Rename chat</DialogTitle>
      </DialogHeader>
      <Field label="Chat name">
        <Input
          value={title}
          maxLength={CHAT.renameMaxLength}
          onChange={(event) => setTitle(event.target.value)}
          onFocus={(event) => event.currentTarget.select()}
          readOnly={saving}
        />
      </Field>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={saving}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" loading={saving} disabled={!canSave && !saving}>
          Save
        </Button>
      </DialogFooter>
    </form>
  );
}
