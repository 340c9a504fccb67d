import type { ReactElement } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster, toast } from '../../../src/ui/toast';

// jsdom has no matchMedia; react-hot-toast and the tagline ask it about reduced motion.
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

/** Renders `ui` beside the toast area, with a user-event session. */
export function renderWithToasts(
  ui: ReactElement,
  options: Parameters<typeof userEvent.setup>[0] = {},
) {
  const user = userEvent.setup(options);
  const view = render(
    <>
      {ui}
      <Toaster />
    </>,
  );
  return { user, ...view };
}

/** Removes every toast, so none leaks into the next test. */
export function clearToasts() {
  act(() => toast.remove());
}

/** The toast with this text; an error toast is an alert, any other a status. */
export async function findToast(text: string, role: 'alert' | 'status' = 'status') {
  const toastText = await screen.findByText(text, { selector: '[role]' });
  expect(toastText).toHaveAttribute('role', role);
  return toastText;
}
