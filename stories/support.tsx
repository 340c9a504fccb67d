/** What the stories share: a frame to fill, and waiting for toasts before the accessibility check. */
import { toast } from 'ayah-coach';
import type { ReactNode } from 'react';
import { expect, screen, waitFor } from 'storybook/test';

/**
 * A fixed-height frame: the chat fills its container, at the frame's width whatever it shows (a
 * block box between them, since a flex item would be as wide as its content). Inline styles, since
 * Tailwind scans only src/.
 */
export function Frame({ children, width }: { children: ReactNode; width?: number }) {
  return (
    <div
      data-story-frame=""
      style={{ height: 600, width, display: 'flex', border: '1px dashed #cbd5e1' }}
    >
      <div style={{ flex: '1 1 0', minWidth: 0 }}>{children}</div>
    </div>
  );
}

/** The chat (or sidebar) fills its story frame's width, the same in every story. */
export async function expectFrameFilled(canvasElement: HTMLElement, slot: string) {
  const frame = canvasElement.querySelector('[data-story-frame]')!;
  const widget = canvasElement.querySelector(`[data-slot="${slot}"]`)!;
  await expect(widget.getBoundingClientRect().width).toBe(frame.clientWidth);
}

/** Clears toasts after each story, so none leaks into the next. */
export const clearToasts = () => () => toast.remove();

/** Waits for the toast with `text` to show, then for its enter animation to end (axe reads colours after). */
export async function findToast(text: string, role: 'alert' | 'status' = 'status') {
  const found = await screen.findByText(text, { selector: '[role]' }, { timeout: 3000 });
  await expect(found).toHaveAttribute('role', role);
  // A toast comes in at opacity 0 and fades in once its height is measured.
  await waitFor(() => expect(found).toBeVisible(), { timeout: 3000 });
  await toastsSettled();
  return found;
}

/** Waits for the enter animations of toasts to end, before the accessibility check reads colours. */
export async function toastsSettled() {
  await waitFor(() => expect(document.getAnimations().filter(isToastAnimation)).toEqual([]));
}

function isToastAnimation(animation: Animation) {
  const target = (animation.effect as KeyframeEffect | null)?.target;
  return (
    target instanceof Element &&
    target.closest('[data-slot="toaster"]') !== null &&
    animation.playState === 'running' &&
    (animation.effect?.getTiming().iterations ?? 1) !== Infinity
  );
}
