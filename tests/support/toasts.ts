import { screen } from '@testing-library/react';

/**
 * The toast with this text, once shown (within `timeout` ms, findBy's own by default); an error
 * toast is an alert, any other a status.
 */
export async function findToast(
  text: string,
  role: 'alert' | 'status' = 'status',
  timeout?: number,
) {
  const toastText = await screen.findByText(text, { selector: '[role]' }, { timeout });
  expect(toastText).toHaveAttribute('role', role);
  return toastText;
}
