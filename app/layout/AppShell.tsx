import { AyahRoot, Toaster } from 'ayah-coach';
import { createContext, type ReactNode, useContext, useLayoutEffect, useState } from 'react';
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
      {/*
       * Its content is the page's header. Prerendered (scripts/prerender.mjs), it holds that header's
       * HTML, which hydration leaves alone and the page's own header replaces (PageHeader).
       */}
      <div
        ref={setSlot}
        className="ay:contents"
        data-header-slot=""
        dangerouslySetInnerHTML={{ __html: '' }}
      />
      <HeaderSlot.Provider value={slot}>
        {/* The one main landmark of every route. */}
        <main className="ay:flex ay:min-h-0 ay:flex-1 ay:flex-col">{children}</main>
      </HeaderSlot.Provider>
      <Toaster />
    </AyahRoot>
  );
}

/**
 * Where a page's header goes when there is no document to portal it into: the build's prerender
 * (app/prerender.tsx) writes it into the header slot's HTML.
 */
export const HeaderCollector = createContext<((header: HeaderProps) => void) | null>(null);

type HeaderProps = { className?: string; children: ReactNode };

/** The page's `<header>` (the banner landmark), rendered above the shell's `main`. */
export function PageHeader({ className, children }: HeaderProps) {
  const slot = useContext(HeaderSlot);
  useContext(HeaderCollector)?.({ className, children });
  // The prerendered header goes as this one arrives, in the same commit: nothing moves.
  useLayoutEffect(() => {
    slot?.querySelectorAll(':scope > [data-prerendered-header]').forEach((node) => node.remove());
  }, [slot]);
  return slot ? createPortal(<header className={className}>{children}</header>, slot) : null;
}
