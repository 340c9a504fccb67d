import {
  Toaster as HotToaster,
  ToastBar,
  toast,
  type Toast,
  type ToasterProps,
} from 'react-hot-toast';
import { TOAST } from '../lib/limits';
import { PortalScope } from './root';

export { toast };

// react-hot-toast stamps `role="status"` on each toast when it is created, and that beats any
// `ariaProps` in the Toaster's options, so errors are given their alert role as they render.
const ERROR_ARIA = { role: 'alert', 'aria-live': 'assertive' } as const;

function withAria(t: Toast): Toast {
  return t.type === 'error' ? { ...t, ariaProps: ERROR_ARIA } : t;
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
            'ay:flex ay:items-center ay:gap-2 ay:max-w-[360px] ay:px-3 ay:py-2 ay:bg-background ay:text-foreground ay:text-sm ay:shadow-popover ay:rounded-md ay:border ay:border-border',
          success: { duration: TOAST.successMs },
          error: { duration: TOAST.errorMs },
          loading: { duration: Infinity },
          ...props.toastOptions,
        }}
      >
        {props.children ?? ((t) => <ToastBar toast={withAria(t)} position={position} />)}
      </HotToaster>
    </PortalScope>
  );
}
