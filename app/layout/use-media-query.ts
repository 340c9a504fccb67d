import { useSyncExternalStore } from 'react';

/**
 * Whether a media query matches now, following changes (e.g. a phone turned sideways). `prerendered`
 * is the answer the build's prerender gives (it knows no screen), which hydration starts from.
 */
export function useMediaQuery(query: string, prerendered = false): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => prerendered,
  );
}
