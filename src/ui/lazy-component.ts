import { type ComponentType, lazy, type LazyExoticComponent } from 'react';

/**
 * A module's named component, loaded on demand (`React.lazy` takes only a default export), and a
 * `preload` that starts the load early (the opener hovered or focused, a menu opened, an idle moment)
 * and ignores a failure there: rendering the component meets it again, through its Suspense.
 *
 * ```tsx
 * const [SearchPopup, preloadSearch] = lazyComponent(() => import('./SearchPopup'), 'SearchPopup');
 * ```
 */
// React.lazy's own bound: a component taking any props (each keeps its own props through M[K]).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyComponent<M extends Record<K, ComponentType<any>>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): readonly [LazyExoticComponent<M[K]>, () => void] {
  const Component = lazy(() => load().then((module) => ({ default: module[name] })));
  const preload = () => void load().catch(() => {});
  return [Component, preload];
}
