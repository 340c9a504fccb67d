import { expect, screen, waitFor } from 'storybook/test';
import { toast } from 'ayah-coach';

/** Clears toasts after each story, so none leaks into the next. */
export const clearToasts = () => () => toast.remove();

/** Waits for the toast with `text`, then for its enter animation to end (axe reads colours after). */
export async function findToast(text: string, role: 'alert' | 'status' = 'status') {
  const found = await screen.findByText(text, { selector: '[role]' }, { timeout: 3000 });
  await expect(found).toHaveAttribute('role', role);
  await toastsSettled();
  return found;
}

/** Waits for the enter animations of toasts to end. */
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
