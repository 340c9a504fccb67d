import { render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';

import { ErrorBoundary } from '../../../app/layout/ErrorBoundary';

afterEach(() => vi.restoreAllMocks());

function Broken(): never {
  throw new Error('The chat list could not be drawn.');
}

it("shows the spec's error screen in the page's one main landmark, said at once", () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  render(
    <ErrorBoundary>
      <Broken />
    </ErrorBoundary>,
  );
  const main = screen.getByRole('main');
  expect(screen.getAllByRole('main')).toHaveLength(1);
  const alert = screen.getByRole('alert');
  expect(main).toContainElement(alert);
  expect(alert).toHaveTextContent('Something went wrong');
  expect(alert).toHaveTextContent('The chat list could not be drawn.');
  expect(screen.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
  expect(screen.getByRole('button', { name: 'Reload Page' })).toBeEnabled();
});

it('renders its children while nothing has failed', () => {
  render(
    <ErrorBoundary>
      <p>All well</p>
    </ErrorBoundary>,
  );
  expect(screen.getByText('All well')).toBeVisible();
  expect(screen.queryByRole('alert')).toBeNull();
});
