import type { FormEvent, ReactNode } from 'react';

import { Button } from './button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from './dialog';

export interface FormDialogProps {
  /** Whether the dialog is open (controlled: a machine state decides). */
  open: boolean;
  /** The dialog's heading, e.g. 'Rename chat'. */
  title: ReactNode;
  /** A line under the title; leave it out and the dialog has no description. @default undefined */
  description?: ReactNode;
  /** The submitted work is running: Escape, × and Cancel cannot close the dialog. */
  pending: boolean;
  /** Called when the user closes the dialog (Cancel, ×, Escape, the overlay) while not pending. */
  onCancel: () => void;
  /** Radix's hook for where focus goes once the dialog has closed. @default undefined */
  onCloseAutoFocus?: (event: Event) => void;
  /** The body: usually a `FormDialogForm`, keyed by what it edits so its fields start afresh. */
  children?: ReactNode;
}

/**
 * The shell of a machine-driven form dialog (edit a goal, log progress, rename a chat): a Radix dialog
 * whose `open` a machine state drives, which asks the machine to cancel when closed, and which cannot be
 * closed while its work is pending.
 */
export function FormDialog({
  open,
  title,
  description,
  pending,
  onCancel,
  onCloseAutoFocus,
  children,
}: FormDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) onCancel();
      }}
    >
      <DialogContent
        {...(description === undefined ? { 'aria-describedby': undefined } : {})}
        onCloseAutoFocus={onCloseAutoFocus}
        onEscapeKeyDown={(event) => {
          if (pending) event.preventDefault();
        }}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description !== undefined && <DialogDescription>{description}</DialogDescription>}
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}

export interface FormDialogFormProps {
  /** The fields (`Field`s). */
  children: ReactNode;
  /** The submit button's text, e.g. 'Save'. */
  submitLabel: ReactNode;
  /** The submitted work is running: the submit button spins, Cancel is disabled. */
  pending: boolean;
  /** The form cannot be sent yet (the submit button is disabled unless pending). @default false */
  invalid?: boolean;
  /** Leave validation to the fields' own messages, not the browser's. @default false */
  noValidate?: boolean;
  /** Called on submit (the browser's default is already prevented). */
  onSubmit: () => void;
}

/** A `FormDialog`'s form: the fields, then Cancel (closes the dialog) and the submit button. */
export function FormDialogForm({
  children,
  submitLabel,
  pending,
  invalid = false,
  noValidate,
  onSubmit,
}: FormDialogFormProps) {
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }

  return (
    <form onSubmit={submit} className="ay:grid ay:gap-4" noValidate={noValidate}>
      {children}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={pending}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" loading={pending} disabled={invalid && !pending}>
          {submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
