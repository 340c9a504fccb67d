import { type FormEvent, type ReactNode, useRef } from 'react';

import { Button } from './button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from './dialog';

export interface ConfirmDialogProps {
  /** Whether the dialog is open (controlled). @default undefined */
  open?: boolean;
  /** Whether the dialog starts open (uncontrolled). @default false */
  defaultOpen?: boolean;
  /** Called when the dialog asks to open or close (Cancel, Escape, the trigger). */
  onOpenChange?: (open: boolean) => void;
  /** An element that opens the dialog, e.g. a `Button`. @default undefined */
  trigger?: ReactNode;
  /** The question, e.g. 'Delete chat?'. */
  title: ReactNode;
  /** What happens if confirmed. @default undefined */
  description?: ReactNode;
  /** Extra content between the description and the buttons. @default undefined */
  children?: ReactNode;
  /** @default 'Confirm' */
  confirmLabel?: ReactNode;
  /** @default 'Cancel' */
  cancelLabel?: ReactNode;
  /** `destructive` paints the confirm button red, for deletions. @default 'default' */
  variant?: 'default' | 'destructive';
  /**
   * The confirmed action is running: the confirm button shows a spinner, Cancel is disabled and the
   * dialog cannot be dismissed.
   * @default false
   */
  busy?: boolean;
  /** Called by the confirm button. The dialog stays open: close it through `open` when the work is done. */
  onConfirm: () => void;
  /** Called by Cancel (and by Escape) before the dialog closes. @default undefined */
  onCancel?: () => void;
}

/**
 * A confirmation (role="alertdialog") for consequential actions such as deleting a chat or a goal.
 * Focus starts on Cancel, the least harmful choice; clicking outside does not dismiss it.
 */
export function ConfirmDialog({
  open,
  defaultOpen,
  onOpenChange,
  trigger,
  title,
  description,
  children,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  variant = 'default',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);

  // While busy every way out is shut (Cancel disabled, Escape ignored), so closing here is a cancel.
  function handleOpenChange(next: boolean) {
    if (!next) onCancel?.();
    onOpenChange?.(next);
  }

  return (
    <Dialog open={open} defaultOpen={defaultOpen} onOpenChange={handleOpenChange}>
      {trigger && <DialogTrigger asChild>{trigger}</DialogTrigger>}
      <DialogContent
        role="alertdialog"
        showCloseButton={false}
        data-slot="confirm-dialog"
        {...(description ? {} : { 'aria-describedby': undefined })}
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          cancelRef.current?.focus();
        }}
        onPointerDownOutside={(event) => event.preventDefault()}
        onEscapeKeyDown={(event) => {
          if (busy) event.preventDefault();
        }}
      >
        <DialogHeader className="ay:pr-0">
          <DialogTitle>{title}</DialogTitle>
          {description && <DialogDescription>{description}</DialogDescription>}
        </DialogHeader>
        {children}
        <DialogFooter>
          <DialogClose asChild>
            <Button ref={cancelRef} variant="outline" disabled={busy}>
              {cancelLabel}
            </Button>
          </DialogClose>
          <Button
            variant={variant === 'destructive' ? 'destructive' : 'default'}
            loading={busy}
            onClick={onConfirm}
          >
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

// The form dialog shell lives beside ConfirmDialog on purpose: the sidebar's and the goals board's lazy
// dialogs load both, and a module of its own became a chunk of its own (bench:bundle: /assistant's
// first load grew by its preload entry, the app's JS by a chunk's gzip overhead).

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
