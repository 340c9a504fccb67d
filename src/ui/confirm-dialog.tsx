import { type ReactNode, useRef } from 'react';

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
