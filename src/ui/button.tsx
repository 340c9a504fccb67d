import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps, MouseEvent } from 'react';

import { cn } from '../lib/cn';
import { Spinner } from './spinner';

const primary = 'ay:bg-primary ay:text-primary-foreground ay:hover:bg-primary-hover';

export const buttonVariants = cva(
  [
    'ay:inline-flex ay:shrink-0 ay:items-center ay:justify-center ay:gap-2 ay:rounded-md',
    'ay:whitespace-nowrap ay:font-medium ay:transition-colors ay:select-none',
    'ay:disabled:pointer-events-none ay:disabled:opacity-50 ay:aria-busy:cursor-progress',
    "ay:[&_svg]:pointer-events-none ay:[&_svg:not([class*='size-'])]:size-4",
  ],
  {
    variants: {
      variant: {
        default: primary,
        /** The same as `default`. */
        primary,
        secondary: 'ay:bg-secondary ay:text-secondary-foreground ay:hover:bg-secondary/80',
        outline: 'ay:border ay:border-border ay:bg-background ay:text-foreground ay:hover:bg-muted',
        ghost: 'ay:text-foreground ay:hover:bg-muted',
        destructive:
          'ay:bg-destructive ay:text-destructive-foreground ay:hover:bg-destructive-hover',
        link: 'ay:text-primary ay:underline-offset-4 ay:hover:underline',
      },
      size: {
        sm: 'ay:h-8 ay:px-3 ay:text-xs',
        md: 'ay:h-10 ay:px-4 ay:text-sm',
        lg: 'ay:h-12 ay:px-6 ay:text-base',
        icon: 'ay:size-10 ay:text-sm',
      },
    },
    defaultVariants: { variant: 'default', size: 'md' },
  },
);

export interface ButtonProps extends ComponentProps<'button'>, VariantProps<typeof buttonVariants> {
  /**
   * Busy: shows a spinner, sets `aria-busy` and ignores clicks. The button stays focusable (unlike
   * `disabled`), so keyboard focus is not lost while the work runs.
   * @default false
   */
  loading?: boolean;
}

/**
 * A button. `variant`: default (primary), secondary, outline, ghost, destructive or link; `size`: sm, md,
 * lg or icon (an icon-only button needs an `aria-label`).
 */
export function Button({
  className,
  variant,
  size,
  loading = false,
  type = 'button',
  onClick,
  children,
  ...props
}: ButtonProps) {
  function handleClick(event: MouseEvent<HTMLButtonElement>) {
    // Also cancels a form's implicit submission, which arrives as a click on its submit button.
    if (loading) event.preventDefault();
    else onClick?.(event);
  }

  return (
    <button
      data-slot="button"
      data-variant={variant ?? 'default'}
      type={type}
      className={cn(buttonVariants({ variant, size }), className)}
      {...props}
      aria-busy={loading ? true : props['aria-busy']}
      aria-disabled={loading ? true : props['aria-disabled']}
      onClick={handleClick}
    >
      {loading && <Spinner />}
      {/* An icon button has room for one glyph: the spinner takes the icon's place. */}
      {loading && size === 'icon' ? null : children}
    </button>
  );
}
