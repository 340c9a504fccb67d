import {
  type AriaAttributes,
  type ComponentProps,
  createContext,
  type ReactNode,
  useContext,
  useId,
} from 'react';

import { cn } from '../lib/cn';
import { Label } from './label';

interface FieldContextValue {
  controlId: string;
  descriptionId: string | undefined;
  errorId: string | undefined;
  invalid: boolean;
  required: boolean;
}

const FieldContext = createContext<FieldContextValue | null>(null);

/** The props a control inside a `Field` takes from it; each one the control sets itself wins. */
export interface FieldControlProps {
  id?: string;
  required?: boolean;
  'aria-describedby'?: string;
  'aria-invalid'?: AriaAttributes['aria-invalid'];
}

/**
 * Wires a control to the enclosing `Field`: its id (for the label), `aria-describedby` (description and
 * error), `aria-invalid` and `required`. Outside a Field it returns the props unchanged, so `Input`,
 * `Textarea` and `PasswordInput` also work on their own.
 */
export function useFieldControl<P extends FieldControlProps>(props: P): P {
  const field = useContext(FieldContext);
  if (!field) return props;
  const describedBy = [props['aria-describedby'], field.descriptionId, field.errorId]
    .filter(Boolean)
    .join(' ');
  return {
    ...props,
    id: props.id ?? field.controlId,
    required: props.required ?? (field.required || undefined),
    'aria-describedby': describedBy || undefined,
    'aria-invalid': props['aria-invalid'] ?? (field.invalid || undefined),
  };
}

export interface FieldProps extends Omit<ComponentProps<'div'>, 'children'> {
  /** The visible label, tied to the control. */
  label: ReactNode;
  /** The control: `Input`, `Textarea`, `PasswordInput`, or any element that calls `useFieldControl`. */
  children: ReactNode;
  /** Help text under the control, read after the label. @default undefined */
  description?: ReactNode;
  /** Error text; when present the control is `aria-invalid` and the text is announced. @default undefined */
  error?: ReactNode;
  /** Marks the control `required` and shows an asterisk beside the label. @default false */
  required?: boolean;
  /** Id for the control; one is generated otherwise. @default useId() */
  controlId?: string;
}

/** A labelled form field: label, control, optional description and error, wired together. */
export function Field({
  label,
  children,
  description,
  error,
  required = false,
  controlId,
  className,
  ...props
}: FieldProps) {
  const id = useId();
  const hasError = error != null && error !== false && error !== '';
  const context: FieldContextValue = {
    controlId: controlId ?? `${id}-control`,
    descriptionId: description ? `${id}-description` : undefined,
    errorId: hasError ? `${id}-error` : undefined,
    invalid: hasError,
    required,
  };

  return (
    <div
      data-slot="field"
      data-invalid={hasError || undefined}
      className={cn('ay:flex ay:flex-col ay:gap-1.5', className)}
      {...props}
    >
      <Label htmlFor={context.controlId}>
        {label}
        {/* `required` on the control already tells assistive technology. */}
        {required && (
          <span aria-hidden="true" className="ay:text-destructive">
            *
          </span>
        )}
      </Label>
      <FieldContext value={context}>{children}</FieldContext>
      {description && (
        <p
          id={context.descriptionId}
          data-slot="field-description"
          className="ay:text-xs ay:text-muted-foreground"
        >
          {description}
        </p>
      )}
      {hasError && (
        <p
          id={context.errorId}
          data-slot="field-error"
          role="alert"
          className="ay:text-xs ay:font-medium ay:text-destructive"
        >
          {error}
        </p>
      )}
    </div>
  );
}
