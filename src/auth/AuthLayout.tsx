import { type ComponentProps, type MouseEvent, type ReactNode, useEffect, useRef } from 'react';

import { cn } from '../lib/cn';
import { AyahRoot, type Theme } from '../ui/root';

export type AuthLayoutProps = {
  children: ReactNode;
  /** @default the enclosing root's theme, else 'light' */
  theme?: Theme | undefined;
  className?: string | undefined;
};

/**
 * The card every auth page sits in, inside its own `AyahRoot`: centred both ways on the calm
 * `backdrop` colour, filling whatever height its host gives it.
 */
export function AuthLayout({ children, theme, className }: AuthLayoutProps) {
  return (
    <AyahRoot
      theme={theme}
      className={cn(
        'ay:flex ay:min-h-full ay:w-full ay:flex-1 ay:items-center ay:justify-center ay:bg-backdrop ay:px-4 ay:py-8',
        className,
      )}
    >
      <div
        data-slot="auth-card"
        className="ay:flex ay:w-full ay:max-w-[420px] ay:flex-col ay:gap-6 ay:rounded-lg ay:border ay:border-border ay:bg-background ay:p-6 ay:shadow-popover"
      >
        {children}
      </div>
    </AyahRoot>
  );
}

export type NavLinkProps = Omit<ComponentProps<'a'>, 'href'> & {
  /** An in-app path, e.g. '/auth'. */
  to: string;
  /** The host's router; without it the link is an ordinary one. */
  onNavigate?: ((path: string) => void) | undefined;
};

/**
 * A link to an in-app path that hands a plain click to the host's router, and leaves a click with a
 * modifier (new tab, new window) to the browser.
 */
export function NavLink({ to, onNavigate, onClick, className, children, ...props }: NavLinkProps) {
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (!onNavigate || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onNavigate(to);
  }
  return (
    <a
      href={to}
      onClick={handleClick}
      className={cn(
        'ay:font-medium ay:text-primary ay:underline-offset-4 ay:hover:underline',
        className,
      )}
      {...props}
    >
      {children}
    </a>
  );
}

/**
 * A ref for a view's heading that takes focus when the view changes (not on the first render), so
 * keyboard and screen-reader users land at the top of what just appeared.
 */
export function useFocusOnChange<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.focus();
  }, [key]);
  return ref;
}

/** The classes of a page heading that can take focus. */
export const headingClass = 'ay:text-xl ay:font-semibold ay:leading-tight ay:outline-none';
