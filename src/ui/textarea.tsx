import type { ComponentProps } from 'react';

import { cn } from '../lib/cn';
import { useFieldControl } from './field';
import { inputVariants } from './input';

/** A multi-line text input. Inside a `Field` it takes the field's id, description and error. */
export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  const controlProps = useFieldControl(props);
  return (
    <textarea
      data-slot="textarea"
      className={cn(inputVariants(), 'ay:h-auto ay:min-h-20', className)}
      {...controlProps}
    />
  );
}
