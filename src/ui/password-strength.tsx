import { cva } from 'class-variance-authority';
import type { ComponentProps } from 'react';

import { cn } from '../lib/cn';
import { checkPassword, PASSWORD_REQUIREMENTS } from '../lib/password';

/** One segment of the meter: filled in the colour of the strength level, or empty. */
export const strengthSegmentVariants = cva(
  'ay:h-1.5 ay:flex-1 ay:rounded-full ay:transition-colors',
  {
    variants: {
      level: {
        empty: 'ay:bg-progress-track',
        'very-weak': 'ay:bg-strength-very-weak',
        weak: 'ay:bg-strength-weak',
        fair: 'ay:bg-strength-fair',
        good: 'ay:bg-strength-good',
        strong: 'ay:bg-strength-strong',
      },
    },
    defaultVariants: { level: 'empty' },
  },
);

export interface PasswordStrengthProps extends Omit<ComponentProps<'div'>, 'children'> {
  /** The password being typed. */
  password: string;
}

/**
 * Password strength meter (spec section 5): one segment per requirement met, coloured Very Weak (red)
 * to Strong (green), and the label, which screen readers hear politely as it changes.
 */
export function PasswordStrength({ password, className, ...props }: PasswordStrengthProps) {
  const { strength, label, level } = checkPassword(password);
  const empty = password.length === 0;

  return (
    <div
      data-slot="password-strength"
      data-level={empty ? undefined : level}
      data-strength={strength}
      className={cn('ay:flex ay:flex-col ay:gap-1.5', className)}
      {...props}
    >
      <div aria-hidden="true" className="ay:flex ay:gap-1">
        {PASSWORD_REQUIREMENTS.map((requirement, index) => (
          <span
            key={requirement.id}
            data-slot="password-strength-segment"
            data-filled={index < strength}
            className={strengthSegmentVariants({ level: index < strength ? level : 'empty' })}
          />
        ))}
      </div>
      {/* The live region exists before the first label, so the first label is announced too. */}
      <p
        role="status"
        aria-atomic="true"
        className="ay:min-h-[1.35em] ay:text-xs ay:text-muted-foreground"
      >
        {!empty && (
          <>
            Password strength: <span className="ay:font-medium ay:text-foreground">{label}</span>
          </>
        )}
      </p>
    </div>
  );
}
