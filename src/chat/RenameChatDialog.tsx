import { useSelector } from '@xstate/react';
import { useState } from 'react';

import { CHAT } from '../lib/limits';
import { FormDialog, FormDialogForm } from '../ui/confirm-dialog';
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
    <FormDialog
      open={open}
      title="Rename chat"
      pending={saving}
      onCancel={() => actor.send({ type: 'rename.cancel' })}
      onCloseAutoFocus={(event) => {
        event.preventDefault();
        onClosed();
      }}
    >
      {/* Keyed by chat: the field starts from the current name each time. */}
      {target && <RenameForm key={target.id} title={target.title} saving={saving} />}
    </FormDialog>
  );
}

function RenameForm({ title: current, saving }: { title: string; saving: boolean }) {
  const actor = useSessionsActor('RenameForm');
  const [title, setTitle] = useState(current);
  const canSave = useSelector(actor, (s) => s.can({ type: 'rename.save', title }));

  return (
    <FormDialogForm
      submitLabel="Save"
      pending={saving}
      invalid={!canSave}
      onSubmit={() => {
        if (canSave) actor.send({ type: 'rename.save', title });
      }}
    >
      <Field label="Chat name">
        <Input
          value={title}
          maxLength={CHAT.renameMaxLength}
          onChange={(event) => setTitle(event.target.value)}
          onFocus={(event) => event.currentTarget.select()}
          readOnly={saving}
        />
      </Field>
    </FormDialogForm>
  );
}
