import { type ComponentProps, createContext, useContext } from 'react';

import { cn } from '../lib/cn';

/** Colour scheme of an Ayah root: a fixed one, or whatever the reader's system prefers. */
export type Theme = 'light' | 'dark' | 'system';

const ThemeContext = createContext<Theme | null>(null);

/** The theme of the nearest `AyahRoot`; `light` outside any. */
export function useTheme(): Theme {
  return useContext(ThemeContext) ?? 'light';
}

export interface AyahRootProps extends ComponentProps<'div'> {
  /**
   * Colour scheme for everything inside, portals included.
   * @default the enclosing root's theme, else 'light'
   */
  theme?: Theme;
}

/**
 * The scope every Ayah stylesheet rule lives under. Each feature's root component renders one, so a
 * portal can drop `<Chat>` or `<Goals>` anywhere without our CSS touching the rest of its page.
 */
export function AyahRoot({ theme, className, ...props }: AyahRootProps) {
  const inherited = useContext(ThemeContext);
  const resolved = theme ?? inherited ?? 'light';
  return (
    <ThemeContext.Provider value={resolved}>
      <div
        data-slot="ayah-root"
        data-theme={resolved}
        className={cn('ayah ay:bg-background ay:text-foreground', className)}
        {...props}
      />
    </ThemeContext.Provider>
  );
}

/**
 * Wraps content that a portal moves to `document.body` (dialogs, menus, toasts), so it stays inside
 * Ayah's CSS scope and keeps the theme of the root it came from.
 */
export function PortalScope({ className, ...props }: ComponentProps<'div'>) {
  const theme = useTheme();
  return (
    <div
      data-slot="ayah-portal"
      data-theme={theme}
      className={cn('ayah ay:contents', className)}
      {...props}
    />
  );
}
