import { type ReactNode, useEffect, useSyncExternalStore } from 'react';
import type { Options } from 'react-markdown';

/** Rehype plugins that render math with KaTeX. */
export type KatexPlugins = NonNullable<Options['rehypePlugins']>;

let plugins: KatexPlugins | null = null;
let loading: Promise<KatexPlugins> | null = null;
const listeners = new Set<() => void>();

/**
 * Loads KaTeX, its rehype plugin and its stylesheet (once). KaTeX is most of the chat's weight, so
 * it stays behind this dynamic import: a portal showing only the goals widget never loads it, and
 * the chat loads it when the first formula renders. A failed load may be tried again.
 */
export function loadKatex(): Promise<KatexPlugins> {
  loading ??= import('./katex').then(
    (module) => {
      plugins = module.katexPlugins;
      for (const listener of listeners) listener();
      return plugins;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Fetches KaTeX ahead of the first formula; a failure is met again when a formula renders. */
export function preloadMath(): Promise<void> {
  return loadKatex().then(
    () => undefined,
    () => undefined,
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The KaTeX rehype plugins once loaded, else null (and null while rendering on a server). */
export function useKatexPlugins(): KatexPlugins | null {
  return useSyncExternalStore(
    subscribe,
    () => plugins,
    () => null,
  );
}

/**
 * A formula's source as plain text, shown until KaTeX arrives (which rendering it asks for). Display
 * math keeps its own centred line, so the page does not jump more than the formula itself.
 */
export function MathSource({ display, children }: { display: boolean; children: ReactNode }) {
  useEffect(() => {
    loadKatex().catch(() => undefined);
  }, []);
  return display ? (
    <div data-slot="math-source" className="ay:my-3 ay:text-center ay:whitespace-pre-wrap">
      {children}
    </div>
  ) : (
    <span data-slot="math-source">{children}</span>
  );
}
