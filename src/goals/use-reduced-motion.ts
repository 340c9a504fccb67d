import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

function subscribe(onChange: () => void) {
  if (typeof window === 'undefined' || !window.matchMedia) return () => {};
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

const prefersReduced = () =>
  typeof window !== 'undefined' && !!window.matchMedia && window.matchMedia(QUERY).matches;

/** `override` when given, else the reader's `prefers-reduced-motion`, kept up to date. */
export function useReducedMotion(override?: boolean): boolean {
  const reduced = useSyncExternalStore(subscribe, prefersReduced, () => false);
  return override ?? reduced;
}
