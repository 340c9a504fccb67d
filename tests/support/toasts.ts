import { screen } from '@testing-library/react';

/** The toast with this text, once shown; an error toast is an alert, any other a status. */
export async function findToast(text: string, role: 'alert' | 'status' = 'status') {
  const toastText = await screen.findByText(text, { selector: '[role]' });
  expect(toastText).toHaveAttribute('role', role);
  return toastText;
}
