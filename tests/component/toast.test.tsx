/**
 * The toast area's code loads apart from the page's (issue 26 #5: /auth's first load): nothing of it is
 * in the prerendered HTML, and a toast posted before it has loaded still shows once it has.
 */
import { act, render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';

import { toast, Toaster } from '../../src/ui/toast';
import { findToast } from '../support/toasts';

afterEach(() => {
  act(() => toast.remove());
});

describe('<Toaster>', () => {
  it('is nothing in the server-rendered (prerendered) HTML', () => {
    expect(renderToString(<Toaster />)).toBe('');
  });

  it('shows the toasts posted before its code had loaded, each with its role', async () => {
    toast.success('Saved before the toast area');
    toast.error('Failed before the toast area');
    render(<Toaster />);
    // Its code is still on its way: no toast area yet (this file's module graph is its own, and
    // nothing has loaded it: vitest.config.ts). It may take a busy runner a while to load.
    expect(document.querySelector('[data-slot="toaster"]')).toBeNull();
    await findToast('Saved before the toast area', 'status', 10_000);
    await findToast('Failed before the toast area', 'alert');
    expect(document.querySelector('[data-slot="toaster"]')).not.toBeNull();
    // And one posted now shows as well.
    act(() => void toast.success('Saved after'));
    await findToast('Saved after');
  });
});
