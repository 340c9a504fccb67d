/**
 * Runs `task` once the page has drawn and the browser is idle: `delayMs` from now, then at the next
 * idle moment (at most 2 s later; at once where there is no `requestIdleCallback`). Answers a cancel,
 * so it fits an effect: `useEffect(() => whenIdle(load), [])`. For code a screen will want soon but
 * not for its first paint (a dialog, the reply renderer).
 */
export function whenIdle(task: () => void, delayMs = 0): () => void {
  let idle: number | undefined;
  const timer = setTimeout(() => {
    if (typeof requestIdleCallback === 'function')
      idle = requestIdleCallback(task, { timeout: 2000 });
    else task();
  }, delayMs);
  return () => {
    clearTimeout(timer);
    if (idle !== undefined) cancelIdleCallback(idle);
  };
}
