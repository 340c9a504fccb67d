import * as DialogPrimitive from '@radix-ui/react-dialog';
import type { ComponentProps } from 'react';

import { cn } from '../lib/cn';
import { buttonVariants } from './button';
import { XIcon } from './icons';
import { PortalScope } from './root';
import { VisuallyHidden } from './visually-hidden';

/** A modal dialog (Radix): focus is trapped inside, Escape and the overlay close it, focus returns. */
export function Dialog(props: ComponentProps<typeof DialogPrimitive.Root>) {
  return <DialogPrimitive.Root data-slot="dialog" {...props} />;
}

export function DialogTrigger(props: ComponentProps<typeof DialogPrimitive.Trigger>) {
  return <DialogPrimitive.Trigger data-slot="dialog-trigger" {...props} />;
}

export function DialogClose(props: ComponentProps<typeof DialogPrimitive.Close>) {
  return <DialogPrimitive.Close data-slot="dialog-close" {...props} />;
}

export function DialogOverlay({
  className,
  ...props
}: ComponentProps<typeof DialogPrimitive.Overlay>) {
  return (
    <DialogPrimitive.Overlay
      data-slot="dialog-overlay"
      className={cn(
        'ay:fixed ay:inset-0 ay:z-50 ay:bg-overlay ay:data-[state=open]:animate-fade-in',
        className,
      )}
      {...props}
    />
  );
}

export interface DialogContentProps extends ComponentProps<typeof DialogPrimitive.Content> {
  /** Show the × button (named 'Close') in the corner. @default true */
  showCloseButton?: boolean;
}

/**
 * The dialog panel with its overlay, portalled to `document.body` inside Ayah's CSS scope. Give it a
 * `DialogTitle`, and a `DialogDescription` or `aria-describedby={undefined}`.
 */
export function DialogContent({
  className,
  children,
  showCloseButton = true,
  ...props
}: DialogContentProps) {
  return (
    <DialogPrimitive.Portal data-slot="dialog-portal">
      <PortalScope>
        <DialogOverlay />
        <DialogPrimitive.Content
          data-slot="dialog-content"
          className={cn(
            'ay:fixed ay:top-1/2 ay:left-1/2 ay:z-50 ay:grid ay:w-[calc(100%-32px)] ay:max-w-[512px]',
            'ay:max-h-[calc(100dvh-32px)] ay:-translate-x-1/2 ay:-translate-y-1/2 ay:gap-4 ay:overflow-y-auto',
            'ay:rounded-lg ay:border ay:border-border ay:bg-background ay:p-6 ay:text-foreground',
            'ay:shadow-popover ay:data-[state=open]:animate-fade-in',
            className,
          )}
          {...props}
        >
          {children}
          {showCloseButton && (
            <DialogPrimitive.Close
              data-slot="dialog-close"
              className={cn(
                buttonVariants({ variant: 'ghost', size: 'icon' }),
                'ay:absolute ay:top-3 ay:right-3 ay:size-8 ay:text-muted-foreground ay:hover:text-foreground',
              )}
            >
              <XIcon />
              <VisuallyHidden>Close</VisuallyHidden>
            </DialogPrimitive.Close>
          )}
        </DialogPrimitive.Content>
      </PortalScope>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="dialog-header"
      className={cn('ay:flex ay:flex-col ay:gap-1.5 ay:pr-8', className)}
      {...props}
    />
  );
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="dialog-footer"
      className={cn(
        'ay:flex ay:flex-col-reverse ay:gap-2 ay:sm:flex-row ay:sm:justify-end',
        className,
      )}
      {...props}
    />
  );
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return (
    <DialogPrimitive.Title
      data-slot="dialog-title"
      className={cn('ay:text-lg ay:leading-tight ay:font-semibold', className)}
      {...props}
    />
  );
}

export function DialogDescription({
  className,
  ...props
}: ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description
      data-slot="dialog-description"
      className={cn('ay:text-sm ay:text-muted-foreground', className)}
      {...props}
    />
  );
}
