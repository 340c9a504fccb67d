import { type ReactNode, Suspense, useState } from 'react';

export interface MountOnOpenProps {
  /** Whether the dialog inside is open. */
  open: boolean;
  /** The dialog, typically one loaded with `React.lazy`. */
  children: ReactNode;
}

/**
 * Mounts a dialog the first time it opens, and keeps it mounted after (it closes with its animation
 * and opens again at once). With a `React.lazy` dialog inside, its code is fetched on the first
 * opening rather than with the page that holds it; start the import on the opener's hover or focus
 * and the first opening is instant too.
 */
export function MountOnOpen({ open, children }: MountOnOpenProps) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
