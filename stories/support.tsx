/** What the stories share: a frame to fill, and waiting for toasts before the accessibility check. */
import type { ReactNode } from 'react';
import { expect, screen, waitFor } from 'storybook/test';
import { toast } from 'ayah-coach';

/** A fixed-height frame: the chat fills its container. Inline styles, since Tailwind scans only src/. */
export function Frame({ children, width }: { children: ReactNode; width?: number }) {
  return (
    <div style={{ height: 600, width, display: 'flex', border: '1px dashed #cbd5e1' }}>
      {children}
    </div>
  );
}

/** Clears toasts after each story, so none leaks into the next. */
export const clearToasts = () => () => toast.remove();

/** Waits for the toast with `text`, then for its enter animation to end (axe reads colours after). */
export async function findToast(text: string, role: 'alert' | 'status' = 'status') {
  const found = await screen.findByText(text, { selector: '[role]' }, { timeout: 3000 });
  await expect(found).toHaveAttribute('role', role);
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
    target.closest('[data-rht-toaster]') !== null &&
    animation.playState === 'running' &&
    (animation.effect?.getTiming().iterations ?? 1) !== Infinity
  );
}
