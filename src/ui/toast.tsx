import { Toaster as HotToaster, toast, type ToasterProps } from 'react-hot-toast';
import { TOAST } from '../lib/limits';
import { PortalScope } from './root';

export { toast };

/**
 * The toast area, configured to spec section 9: top-right, at most 20 at once, error and plain toasts
 * 4000 ms, success 2000 ms, loading until dismissed. Errors are announced assertively.
 * Render one per page; every Ayah component posts to it through `toast`.
 */
export function Toaster(props: Partial<ToasterProps>) {
  return (
    <PortalScope>
      <HotToaster
        position="top-right"
        gutter={8}
        {...props}
        toastOptions={{
          duration: TOAST.blankMs,
          className:
            'ay:flex ay:items-center ay:gap-2 ay:max-w-[360px] ay:px-3 ay:py-2 ay:bg-background ay:text-foreground ay:text-sm ay:shadow-popover ay:rounded-md ay:border ay:border-border',
          success: { duration: TOAST.successMs },
          error: {
            duration: TOAST.errorMs,
            ariaProps: { role: 'alert', 'aria-live': 'assertive' },
          },
          loading: { duration: Infinity },
          ...props.toastOptions,
        }}
      />
    </PortalScope>
  );
}
