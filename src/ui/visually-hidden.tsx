import type { ComponentProps } from 'react';

import { cn } from '../lib/cn';

/** Text for screen readers only: kept in the accessibility tree, clipped out of sight. */
export function VisuallyHidden({ className, ...props }: ComponentProps<'span'>) {
  return <span data-slot="visually-hidden" className={cn('ay:sr-only', className)} {...props} />;
}
