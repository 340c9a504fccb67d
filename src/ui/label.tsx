import type { ComponentProps } from 'react';

import { cn } from '../lib/cn';

/** A form label. Point `htmlFor` at the control, or wrap the control inside it. */
export function Label({ className, ...props }: ComponentProps<'label'>) {
  return (
    // The caller supplies the association (htmlFor or a nested control); Field does it for you.
    // eslint-disable-next-line jsx-a11y/label-has-associated-control
    <label
      data-slot="label"
      className={cn(
        'ay:flex ay:items-center ay:gap-1 ay:text-sm ay:leading-none ay:font-medium ay:select-none',
        className,
      )}
      {...props}
    />
  );
}
