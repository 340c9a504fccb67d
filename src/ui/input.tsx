import { cva } from 'class-variance-authority';
import type { ComponentProps } from 'react';

import { cn } from '../lib/cn';
import { useFieldControl } from './field';

/** The look shared by every text control: `Input`, `Textarea`, `PasswordInput`. */
export const inputVariants = cva([
  'ay:block ay:h-10 ay:w-full ay:min-w-0 ay:rounded-md ay:border ay:border-input ay:bg-background',
  'ay:px-3 ay:py-2 ay:text-sm ay:text-foreground ay:transition-colors',
  'ay:focus-visible:border-ring ay:disabled:cursor-not-allowed ay:disabled:opacity-50',
  'ay:aria-invalid:border-destructive',
]);

/** A single-line text input. Inside a `Field` it takes the field's id, description and error. */
export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  const controlProps = useFieldControl(props);
  return (
    <input
      data-slot="input"
      type={type}
      className={cn(inputVariants(), className)}
      {...controlProps}
    />
  );
}
