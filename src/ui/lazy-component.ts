import { type ComponentType, lazy, type LazyExoticComponent } from 'react';

/**
 * A module's named component, loaded on demand (`React.lazy` takes only a default export); a
 * `preload` that starts the load early (the opener hovered or focused, a menu opened, an idle moment)
 * and ignores a failure there: rendering the component meets it again, through its Suspense; and
 * `ready`, which loads it now and resolves once the component renders at once (a test, a story, a
 * screenshot), or rejects with the load's failure. The three share one load at a time (a failed one
 * is tried again).
 *
 * Once the module has loaded, the component renders in the same render that first meets it. React.lazy
 * alone suspends that first render for a turn even then, showing its fallback for a frame (a dialog
 * opened after its preload, a reply's plain text before its markdown): it is handed a thenable that
 * is already fulfilled, which React reads at once.
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
): readonly [LazyExoticComponent<M[K]>, () => void, () => Promise<void>] {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  const loadOnce = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const Component = lazy(() =>
    loaded
      ? fulfilled({ default: loaded[name] })
      : loadOnce().then((module) => ({ default: module[name] })),
  );
  const preload = () => void loadOnce().catch(() => {});
  const ready = () => loadOnce().then(() => undefined);
  return [Component, preload, ready];
}

/** A thenable already fulfilled with `value`: its `then` calls back at once, as React's lazy reads it. */
function fulfilled<T>(value: T): Promise<T> {
  const thenable = { then: (onFulfilled: (value: T) => unknown) => void onFulfilled(value) };
  return thenable as unknown as Promise<T>;
}
