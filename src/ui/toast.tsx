import {
  type Toast,
  toast,
  ToastBar,
  Toaster as HotToaster,
  type ToasterProps,
} from 'react-hot-toast';

import { TOAST } from '../lib/limits';
import type { Notice } from '../lib/notices';
import { CheckIcon, XIcon } from './icons';
import { PortalScope } from './root';
import { Spinner } from './spinner';

export { toast };

/** Shows a machine's notice (the success or error toast it asks for): the one toast bridge. */
export function showNotice({ tone, message }: Pick<Notice, 'tone' | 'message'>): string {
  return tone === 'error' ? toast.error(message) : toast.success(message);
}

// react-hot-toast stamps `role="status"` on each toast when it is created, and that beats any
// `ariaProps` in the Toaster's options, so errors are given their alert role as they render.
const ERROR_ARIA = { role: 'alert', 'aria-live': 'assertive' } as const;

function withAria(t: Toast): Toast {
  return t.type === 'error' ? { ...t, ariaProps: ERROR_ARIA } : t;
}

/**
 * Each kind's icon, drawn by Ayah in its own tokens rather than by react-hot-toast's runtime-styled
 * ones, whose class rules the scoped reset outranks (a white "+" for an error, a half-drawn check, an
 * invisible spinner on a dark root). A toast given its own `icon` keeps it.
 */
function ToastIcon({ toast: t }: { toast: Toast }) {
  if (t.icon !== undefined) return <span data-slot="toast-icon">{t.icon}</span>;
  const badge = 'ay:flex ay:size-5 ay:shrink-0 ay:items-center ay:justify-center ay:rounded-full';
  switch (t.type) {
    case 'success':
      return (
        <span data-slot="toast-icon" className={`${badge} ay:bg-success ay:text-background`}>
          <CheckIcon className="ay:size-3 ay:stroke-3" />
        </span>
      );
    case 'error':
      return (
        <span
          data-slot="toast-icon"
          className={`${badge} ay:bg-destructive ay:text-destructive-foreground`}
        >
          <XIcon className="ay:size-3 ay:stroke-3" />
        </span>
      );
    case 'loading':
      return (
        <span data-slot="toast-icon" className="ay:flex ay:shrink-0">
          <Spinner className="ay:size-5 ay:text-muted-foreground" />
        </span>
      );
    default:
      return null;
  }
}

/**
 * The toast area, configured to spec section 9: top-right, at most 20 at once, error and plain toasts
 * 4000 ms, success 2000 ms, loading until dismissed. Errors are announced assertively.
 * Render one per page; every Ayah component posts to it through `toast`.
 */
export function Toaster(props: Partial<ToasterProps>) {
  const position = props.position ?? 'top-right';
  return (
    <PortalScope>
      <HotToaster
        gutter={8}
        {...props}
        position={position}
        toastOptions={{
          duration: TOAST.blankMs,
          className:
            'ay:pointer-events-auto ay:flex ay:items-center ay:gap-2 ay:max-w-[360px] ay:px-3 ay:py-2 ay:bg-background ay:text-foreground ay:text-sm ay:shadow-popover ay:rounded-md ay:border ay:border-border',
          success: { duration: TOAST.successMs },
          error: { duration: TOAST.errorMs },
          loading: { duration: Infinity },
          ...props.toastOptions,
        }}
      >
        {props.children ??
          ((t) => (
            <ToastBar toast={withAria(t)} position={position}>
              {({ message }) => (
                <>
                  <ToastIcon toast={t} />
                  {message}
                </>
              )}
            </ToastBar>
          ))}
      </HotToaster>
    </PortalScope>
  );
}
