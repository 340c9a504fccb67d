import type { ComponentProps, ReactNode } from 'react';

import { cn } from '../lib/cn';
import { VisuallyHidden } from './visually-hidden';

/** A pulsing placeholder block. Decorative: wrap a group of them in `LoadingStatus`. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden="true"
      className={cn('ay:animate-pulse ay:rounded-md ay:bg-muted', className)}
      {...props}
    />
  );
}

export interface LoadingStatusProps extends ComponentProps<'div'> {
  /** What screen readers hear (and, with `showLabel`, everyone sees). @default 'Loading…' */
  label?: ReactNode;
  /** Show the label on screen instead of only to screen readers. @default false */
  showLabel?: boolean;
}

/**
 * A polite `role="status"` region for a loading view: its children (usually skeletons) are what sighted
 * readers see, the label is what screen readers hear.
 */
export function LoadingStatus({
  label = 'Loading…',
  showLabel = false,
  className,
  children,
  ...props
}: LoadingStatusProps) {
  return (
    <div
      data-slot="loading-status"
      role="status"
      className={cn('ay:flex ay:flex-col ay:gap-2', className)}
      {...props}
    >
      {children}
      {showLabel ? (
        <p className="ay:text-sm ay:text-muted-foreground">{label}</p>
      ) : (
        <VisuallyHidden>{label}</VisuallyHidden>
      )}
    </div>
  );
}
