import type { ComponentProps } from 'react';

import { cn } from '../lib/cn';

export interface SpinnerProps extends ComponentProps<'svg'> {
  /**
   * Accessible name. Leave it out when the surrounding control already says it is busy
   * (a button with `aria-busy`), and the spinner stays decorative.
   * @default undefined
   */
  label?: string;
}

/**
 * A spinning ring in the current text colour; where the reader prefers reduced motion, it stays in
 * place and fades in and out instead.
 */
export function Spinner({ label, className, ...props }: SpinnerProps) {
  return (
    <svg
      data-slot="spinner"
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      fill="none"
      focusable="false"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      className={cn(
        'ay:size-4 ay:shrink-0 ay:fill-none ay:motion-safe:animate-spin ay:motion-reduce:animate-pulse',
        className,
      )}
      {...props}
    >
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeWidth="3" opacity="0.25" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
