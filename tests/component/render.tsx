import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';

import { toast, Toaster } from '../../src/ui/toast';

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
