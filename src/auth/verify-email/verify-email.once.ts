import type { AuthAdapter, AuthResponse } from '../auth.adapter';
import { unlessAborted } from '../auth.notices';

/**
 * A verification link's token is single-use: of two requests with it, the second is refused (400)
 * even when the first succeeded. React mounts a page twice in development (StrictMode) and may do so
 * again when it shows hidden UI, so the page asks once per adapter and token and every mount waits
 * for that one answer. A request is aborted only when nobody has waited for it for a moment (a
 * remount joins at once); a failed one is forgotten, so that opening the link again asks again.
 */
type Verification = {
  answer: Promise<AuthResponse>;
  controller: AbortController;
  waiting: number;
  settled: boolean;
};

const verifications = new WeakMap<AuthAdapter, Map<string, Verification>>();

/**
 * Verifies `token` with `adapter`, or joins the verification already under way (or done) for it.
 * Once `signal` aborts, the returned promise never settles: an abandoned caller hears nothing, not
 * even an abort, so a stopped actor cannot act on it.
 */
export function verifyEmailOnce(
  adapter: AuthAdapter,
  token: string,
  signal: AbortSignal,
): Promise<AuthResponse> {
  if (signal.aborted) return new Promise<never>(() => {});
  let byToken = verifications.get(adapter);
  if (!byToken) {
    byToken = new Map();
    verifications.set(adapter, byToken);
  }
  const entry = byToken.get(token) ?? start(adapter, token, byToken);
  entry.waiting += 1;
  signal.addEventListener('abort', () => leave(entry, token, byToken), { once: true });
  return unlessAborted(entry.answer, signal);
}

function start(
  adapter: AuthAdapter,
  token: string,
  byToken: Map<string, Verification>,
): Verification {
  const controller = new AbortController();
  const entry: Verification = {
    answer: adapter.verifyEmail({ token }, { signal: controller.signal }),
    controller,
    waiting: 0,
    settled: false,
  };
  entry.answer.then(
    () => void (entry.settled = true),
    () => {
      entry.settled = true;
      if (byToken.get(token) === entry) byToken.delete(token);
    },
  );
  byToken.set(token, entry);
  return entry;
}

function leave(entry: Verification, token: string, byToken: Map<string, Verification>): void {
  entry.waiting -= 1;
  // A StrictMode remount joins in the same task; only a request still unwanted after it is aborted.
  setTimeout(() => {
    if (entry.waiting > 0 || entry.settled) return;
    if (byToken.get(token) === entry) byToken.delete(token);
    entry.controller.abort();
  }, 0);
}
