import type { Notice } from '../lib/notices';

/**
 * What the auth machines ask their component to do, as emitted events: the machines stay free of
 * React, toasts and routers, and a test reads the same events with `actor.on(...)`.
 */
export type AuthNotice =
  | Notice
  /** A loading toast that stays `duration` ms (or until dismissed by `id`). */
  | { type: 'toast.loading'; id: string; message: string; duration: number }
  /** Dismisses the toast `id`, or every toast without one. */
  | { type: 'toast.dismiss'; id?: string }
  /** An in-app path for the host's router, e.g. '/verify-email?email=a%40b.co'. */
  | { type: 'route.navigate'; path: string }
  /** A full-page redirect to another site (Google sign-in). */
  | { type: 'page.redirect'; url: string };

/**
 * `promise`, unless `signal` aborts first: then a promise that never settles. An invoked actor's
 * call goes through it, because `@xstate/react` restarts a stopped actor in place when React
 * remounts (StrictMode): the aborted first call's rejection would otherwise reach the restarted
 * actor as if the second call had failed.
 */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    promise.then(
      (value) => {
        if (!signal.aborted) resolve(value);
      },
      (error: unknown) => {
        if (!signal.aborted) reject(error);
      },
    );
  });
}
