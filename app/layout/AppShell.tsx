import { AyahRoot, Toaster } from 'ayah-coach';
import { createContext, type ReactNode, useContext, useState } from 'react';
import { createPortal } from 'react-dom';

import { TrialBanner } from './TrialBanner';

const HeaderSlot = createContext<HTMLElement | null>(null);

/**
 * Every page: one `main`, the Ayah scope over the whole viewport, the trial banner, and the toasts
 * (top-right). A page's header goes before `main` (through `PageHeader`), so that it stays the page's
 * banner landmark rather than a header inside the main content.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  return (
    <AyahRoot theme="system" className="ay:flex ay:h-full ay:min-h-dvh ay:flex-col">
      <TrialBanner />
      <div ref={setSlot} className="ay:contents" />
      <HeaderSlot.Provider value={slot}>
        {/* The one main landmark of every route. */}
        <main className="ay:flex ay:min-h-0 ay:flex-1 ay:flex-col">{children}</main>
      </HeaderSlot.Provider>
      <Toaster />
    </AyahRoot>
  );
}

/** The page's `<header>` (the banner landmark), rendered above the shell's `main`. */
export function PageHeader({ className, children }: { className?: string; children: ReactNode }) {
  const slot = useContext(HeaderSlot);
  return slot ? createPortal(<header className={className}>{children}</header>, slot) : null;
}
