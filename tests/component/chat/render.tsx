import type { ReactElement } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster, toast } from '../../../src/ui/toast';

// jsdom lacks these; Radix's popper and dialogs reach for them.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
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
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};

/** Renders `ui` beside the toast area, with a user-event session. */
export function renderWithToasts(ui: ReactElement) {
  const user = userEvent.setup();
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

/** The toast with this text. */
export function findToast(text: string) {
  return screen.findByText(text);
}
