import { screen } from '@testing-library/react';

export { clearToasts, renderWithToasts } from '../render';

/** The toast with this text. */
export function findToast(text: string) {
  return screen.findByText(text);
}
