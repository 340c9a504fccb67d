import { cva } from 'class-variance-authority';
import type { ComponentProps } from 'react';

import { cn } from '../lib/cn';
import { checkPassword, PASSWORD_REQUIREMENTS } from '../lib/password';
import { CheckIcon, CircleIcon } from './icons';
import { VisuallyHidden } from './visually-hidden';

export const requirementVariants = cva('ay:flex ay:items-center ay:gap-2 ay:text-xs', {
  variants: {
    met: {
      true: 'ay:text-success',
      false: 'ay:text-muted-foreground',
    },
  },
  defaultVariants: { met: false },
});

export interface PasswordRequirementsProps extends Omit<ComponentProps<'ul'>, 'children'> {
  /** The password being typed. */
  password: string;
}

/**
 * The five password requirements of spec section 5 as a live checklist: each item shows whether it is
 * met, by icon and colour and, for screen readers, in words ('met' / 'not met').
 * Give it an `id` and point the password input's `aria-describedby` at it to have it read with the field.
 */
export function PasswordRequirements({
  password,
  className,
  'aria-label': ariaLabel = 'Password requirements',
  ...props
}: PasswordRequirementsProps) {
  const { met } = checkPassword(password);

  return (
    <ul
      data-slot="password-requirements"
      aria-label={ariaLabel}
      className={cn('ay:flex ay:flex-col ay:gap-1', className)}
      {...props}
    >
      {PASSWORD_REQUIREMENTS.map(({ id, label }) => {
        const ok = met[id];
        return (
          <li
            key={id}
            data-slot="password-requirement"
            data-met={ok}
            className={requirementVariants({ met: ok })}
          >
            {ok ? <CheckIcon /> : <CircleIcon className="ay:size-3 ay:mx-0.5" />}
            <span>
              {label}
              <VisuallyHidden>{ok ? ', met' : ', not met'}</VisuallyHidden>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
