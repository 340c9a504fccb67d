import type { ReactNode } from 'react';
import { AyahRoot, Toaster } from 'ayah-coach';
import { TrialBanner } from './TrialBanner';

/** Every page: one `main`, the Ayah scope over the whole viewport, the trial banner, and the toasts (top-right). */
export function AppShell({ children }: { children: ReactNode }) {
  return (
    <AyahRoot theme="system" className="ay:flex ay:h-full ay:min-h-dvh ay:flex-col">
      <TrialBanner />
      {/* The one main landmark of every route. */}
      <main className="ay:flex ay:min-h-0 ay:flex-1 ay:flex-col">{children}</main>
      <Toaster />
    </AyahRoot>
  );
}
