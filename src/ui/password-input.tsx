import { type ComponentProps, useState } from 'react';

import { cn } from '../lib/cn';
import { buttonVariants } from './button';
import { useFieldControl } from './field';
import { EyeIcon, EyeOffIcon } from './icons';
import { inputVariants } from './input';

export interface PasswordInputProps extends Omit<ComponentProps<'input'>, 'type'> {
  /** Whether the password shows as plain text (controlled). @default undefined */
  visible?: boolean;
  /** Whether the password starts out shown (uncontrolled). @default false */
  defaultVisible?: boolean;
  /** Called when the show/hide toggle is pressed. @default undefined */
  onVisibleChange?: (visible: boolean) => void;
}

/**
 * A password input with a show/hide toggle (a toggle button: `aria-pressed`, named 'Show password' or
 * 'Hide password'). Inside a `Field` it takes the field's id, description and error.
 */
export function PasswordInput({
  className,
  visible,
  defaultVisible = false,
  onVisibleChange,
  disabled,
  ...props
}: PasswordInputProps) {
  const controlProps = useFieldControl(props);
  const [uncontrolled, setUncontrolled] = useState(defaultVisible);
  const shown = visible ?? uncontrolled;

  function toggle() {
    setUncontrolled(!shown);
    onVisibleChange?.(!shown);
  }

  return (
    <div data-slot="password-input" className="ay:relative ay:w-full">
      <input
        data-slot="input"
        type={shown ? 'text' : 'password'}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        disabled={disabled}
        className={cn(inputVariants(), 'ay:pr-11', className)}
        {...controlProps}
      />
      <button
        type="button"
        data-slot="password-toggle"
        aria-pressed={shown}
        aria-label={shown ? 'Hide password' : 'Show password'}
        aria-controls={controlProps.id}
        disabled={disabled}
        onClick={toggle}
        className={cn(
          buttonVariants({ variant: 'ghost', size: 'icon' }),
          'ay:absolute ay:top-1 ay:right-1 ay:size-8 ay:text-muted-foreground ay:hover:text-foreground',
        )}
      >
        {shown ? <EyeOffIcon /> : <EyeIcon />}
      </button>
    </div>
  );
}
