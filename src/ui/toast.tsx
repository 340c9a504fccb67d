import { Suspense, useSyncExternalStore } from 'react';
import { toast, type ToasterProps } from 'react-hot-toast/headless';

import type { Notice } from '../lib/notices';
import { lazyComponent } from './lazy-component';

export { toast };

/** Shows a machine's notice (the success or error toast it asks for): the one toast bridge. */
export function showNotice({ tone, message }: Pick<Notice, 'tone' | 'message'>): string {
  return tone === 'error' ? toast.error(message) : toast.success(message);
}

// The toast area's code (toaster-view.tsx) is not part of a first load: it loads as the page comes
// up, and a toast posted before it has waits in react-hot-toast's store (the headless part, which is
// all the rest of Ayah imports) until it shows.
const [ToasterView, , toasterReady] = lazyComponent(() => import('./toaster-view'), 'ToasterView');

/**
 * Loads the toast area's code now, for a host that wants its first toast without that wait (a test,
 * a story's play function); otherwise it loads once a `Toaster` renders in the browser.
 */
export function loadToaster(): Promise<void> {
  return toasterReady();
}

/**
 * The toast area, configured to spec section 9: top-right, at most 20 at once, error and plain toasts
 * 4000 ms, success 2000 ms, loading until dismissed. Errors are announced assertively.
 * Render one per page; every Ayah component posts to it through `toast`. Its code loads apart,
 * once the page renders in the browser (a prerendered screen, and the render that hydrates it, hold
 * no toast area); toasts posted before it has loaded show when it does.
 */
export function Toaster(props: Partial<ToasterProps>) {
  // Nothing in the server's (the build's prerendered) HTML, nor in the render that hydrates it.
  const live = useSyncExternalStore(subscribeNever, isClient, isServer);
  return live ? (
    <Suspense fallback={null}>
      <ToasterView {...props} />
    </Suspense>
  ) : null;
}

const subscribeNever = () => () => {};
const isClient = () => true;
const isServer = () => false;
