import { type CSSProperties, type ReactNode, useCallback, useRef } from 'react';
import {
  resolveValue,
  type Toast,
  type ToasterProps,
  type ToastPosition,
  useToaster,
} from 'react-hot-toast/headless';

import { cn } from '../lib/cn';
import { TOAST } from '../lib/limits';
import { CheckIcon, XIcon } from './icons';
import { PortalScope } from './root';
import { Spinner } from './spinner';

// react-hot-toast stamps `role="status"` on each toast when it is created, and that beats any
// `ariaProps` in the Toaster's options, so errors are given their alert role as they render.
const ERROR_ARIA = { role: 'alert', 'aria-live': 'assertive' } as const;

/**
 * Each kind's icon, drawn by Ayah in its own tokens. A toast given its own `icon` keeps it.
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

const BAR =
  'ay:pointer-events-auto ay:flex ay:items-center ay:gap-2 ay:max-w-[360px] ay:px-3 ay:py-2 ay:bg-background ay:text-foreground ay:text-sm ay:leading-snug ay:shadow-popover ay:rounded-md ay:border ay:border-border ' +
  'ay:transition-[opacity,transform] ay:duration-300 ay:ease-[cubic-bezier(.21,1.02,.73,1)] ay:motion-reduce:transition-opacity ay:motion-reduce:animate-toast-fade-in';

/**
 * One toast: comes in (from above at the top, from below at the bottom) once its height is known
 * (measured before the first paint), goes out when dismissed; only fades where the reader prefers
 * reduced motion.
 */
function ToastBar({ toast: t, position }: { toast: Toast; position: ToastPosition }) {
  const top = position.startsWith('top');
  const shown = t.height !== undefined && t.visible;
  const away = top ? 'ay:motion-safe:-translate-y-3' : 'ay:motion-safe:translate-y-3';
  const enter = top
    ? 'ay:motion-safe:animate-toast-in-top'
    : 'ay:motion-safe:animate-toast-in-bottom';
  return (
    <div
      data-slot="toast"
      className={cn(
        BAR,
        shown ? `ay:opacity-100 ${enter}` : `ay:opacity-0 ay:motion-safe:scale-95 ${away}`,
        t.className,
      )}
      style={t.style}
    >
      <ToastIcon toast={t} />
      <div
        className="ay:flex ay:flex-auto ay:justify-center ay:whitespace-pre-line"
        {...(t.type === 'error' ? ERROR_ARIA : t.ariaProps)}
      >
        {resolveValue(t.message, t)}
      </div>
    </div>
  );
}

/** Reports the toast's height to the store as it renders and whenever its content changes. */
function Measured({
  id,
  onHeight,
  className,
  style,
  children,
}: {
  id: string;
  onHeight: (id: string, height: number) => void;
  className?: string;
  style: CSSProperties;
  children: ReactNode;
}) {
  const observer = useRef<MutationObserver | null>(null);
  const ref = useCallback(
    (node: HTMLDivElement | null) => {
      observer.current?.disconnect();
      if (!node) return;
      const measure = () => onHeight(id, node.getBoundingClientRect().height);
      measure();
      observer.current = new MutationObserver(measure);
      observer.current.observe(node, { subtree: true, childList: true, characterData: true });
    },
    [id, onHeight],
  );
  return (
    <div ref={ref} className={className} style={style}>
      {children}
    </div>
  );
}

/** The toast area that `Toaster` (toast.tsx) loads after the page has mounted. */
export function ToasterView({
  position = 'top-right',
  gutter = 8,
  reverseOrder,
  toastOptions,
  toasterId,
  containerStyle,
  containerClassName,
  children,
}: Partial<ToasterProps>) {
  const { toasts, handlers } = useToaster(
    {
      duration: TOAST.blankMs,
      success: { duration: TOAST.successMs },
      error: { duration: TOAST.errorMs },
      loading: { duration: Infinity },
      ...toastOptions,
    },
    toasterId,
  );
  return (
    <PortalScope>
      {/* Hovering holds the toasts (their timers pause), as react-hot-toast's own area does: a
          mouse nicety on a region that takes no input, not a control. */}
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions */}
      <div
        data-slot="toaster"
        className={cn('ay:pointer-events-none ay:fixed ay:inset-4 ay:z-[9999]', containerClassName)}
        style={containerStyle}
        onMouseEnter={handlers.startPause}
        onMouseLeave={handlers.endPause}
      >
        {toasts.map((t) => {
          const at = t.position ?? position;
          const top = at.startsWith('top');
          const offset = handlers.calculateOffset(t, {
            reverseOrder,
            gutter,
            defaultPosition: position,
          });
          return (
            <Measured
              key={t.id}
              id={t.id}
              onHeight={handlers.updateHeight}
              className={cn(
                'ay:absolute ay:inset-x-0 ay:flex ay:motion-safe:transition-transform ay:motion-safe:duration-200',
                top ? 'ay:top-0' : 'ay:bottom-0',
                at.endsWith('center')
                  ? 'ay:justify-center'
                  : at.endsWith('right')
                    ? 'ay:justify-end'
                    : 'ay:justify-start',
                t.visible && 'ay:z-[9999] ay:*:pointer-events-auto',
              )}
              style={{ transform: `translateY(${top ? offset : -offset}px)` }}
            >
              {t.type === 'custom' ? (
                resolveValue(t.message, t)
              ) : children ? (
                children(t)
              ) : (
                <ToastBar toast={t} position={at} />
              )}
            </Measured>
          );
        })}
      </div>
    </PortalScope>
  );
}
