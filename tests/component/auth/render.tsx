import { screen } from '@testing-library/react';

export { clearToasts, renderWithToasts } from '../render';

/** The toast with this text; an error toast is an alert, any other a status. */
export async function findToast(text: string, role: 'alert' | 'status' = 'status') {
  const toastText = await screen.findByText(text, { selector: '[role]' });
  expect(toastText).toHaveAttribute('role', role);
  return toastText;
}
