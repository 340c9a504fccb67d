import type { ComponentProps } from 'react';

import { cn } from '../lib/cn';

export interface AyahLogoProps extends ComponentProps<'svg'> {
  /** The accessible name; without it the mark is decorative (beside a visible "Ayah"). @default none */
  title?: string | undefined;
}

/**
 * Ayah's mark: an open book under a rising spark, on a rounded tile. Its colours are theme tokens
 * (`--ay-color-logo`, `--ay-color-logo-foreground`, `--ay-color-logo-accent`), so a portal can recolour
 * it with the rest of its theme. Size it with a class (`ay:size-10`).
 */
export function AyahLogo({ title, className, ...props }: AyahLogoProps) {
  return (
    <svg
      data-slot="ayah-logo"
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 48 48"
      role={title ? 'img' : undefined}
      aria-label={title}
      aria-hidden={title ? undefined : true}
      focusable="false"
      className={cn('ay:size-10 ay:shrink-0', className)}
      {...props}
    >
      <rect width="48" height="48" rx="12" className="ay:fill-logo" />
      <path
        d="M24 19v19M11 34V16.5c4.5-1.2 9.2-.2 13 2.5 3.8-2.7 8.5-3.7 13-2.5V34c-4.5-1.2-9.2-.2-13 2.5-3.8-2.7-8.5-3.7-13-2.5z"
        className="ay:fill-none ay:stroke-logo-foreground"
        strokeWidth="2.5"
        strokeLinejoin="round"
        strokeLinecap="round"
      />
      <path
        d="M24 6.5l1.6 3.9 3.9 1.6-3.9 1.6L24 17.5l-1.6-3.9-3.9-1.6 3.9-1.6z"
        className="ay:fill-logo-accent"
      />
    </svg>
  );
}
