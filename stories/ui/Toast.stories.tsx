import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from 'ayah-coach';
import { toast, Toaster } from 'ayah-coach';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';

import { clearToasts, toastsSettled } from '../support';

// The Toaster itself is rendered once by the preview decorator; this story only fires toasts at it.
const meta = {
  title: 'UI/Toast',
  component: Toaster,
  render: () => (
    <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
      <Button onClick={() => toast.success('Goal saved')}>Success</Button>
      <Button variant="destructive" onClick={() => toast.error('Something went wrong')}>
        Error
      </Button>
      <Button variant="outline" onClick={() => toast.loading('Saving…')}>
        Loading
      </Button>
    </div>
  ),
  // Toasts live in a module-wide store: clear them so none leaks into the next story.
  beforeEach: clearToasts,
} satisfies Meta<typeof Toaster>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Kinds: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);

    await userEvent.click(canvas.getByRole('button', { name: 'Success' }));
    const success = await screen.findByText('Goal saved');
    await expect(success).toHaveAttribute('role', 'status');
    await expect(success).toHaveAttribute('aria-live', 'polite');

    // Errors interrupt: role="alert", assertive.
    await userEvent.click(canvas.getByRole('button', { name: 'Error' }));
    const error = await screen.findByText('Something went wrong');
    await expect(error).toHaveAttribute('role', 'alert');
    await expect(error).toHaveAttribute('aria-live', 'assertive');

    await userEvent.click(canvas.getByRole('button', { name: 'Loading' }));
    const loading = await screen.findByText('Saving…');
    await expect(loading).toHaveAttribute('role', 'status');

    // Styled by the scoped stylesheet: the toast sits inside an Ayah scope and uses its tokens.
    await expect(success.closest('.ayah')).not.toBeNull();
    // Let the enter animations finish before the accessibility check reads colours.
    await toastsSettled();
  },
};

export const SuccessExpires: Story = {
  parameters: { settle: { onPurposeMs: 2000, why: 'the spec’s 2000 ms success toast leaving' } },
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Success' }));
    await screen.findByText('Goal saved');
    // Success toasts last 2000 ms (spec section 9), then leave.
    await waitFor(() => expect(screen.queryByText('Goal saved')).not.toBeInTheDocument(), {
      timeout: 4000,
    });
  },
};

/** The three kinds on a dark root, as the app draws them: each icon in Ayah's dark tokens. */
export const KindsDark: Story = {
  globals: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Success' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Error' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Loading' }));
    await screen.findByText('Saving…');
    await toastsSettled();

    const root = canvasElement.querySelector('[data-slot="ayah-root"]')!;
    const dark = getComputedStyle(root).getPropertyValue('--ay-color-background');
    const token = (name: string) => {
      // A token as the browser resolves it, in rgb().
      const probe = document.createElement('span');
      probe.style.color = `var(${name})`;
      root.append(probe);
      const value = getComputedStyle(probe).color;
      probe.remove();
      return value;
    };
    const icon = (text: string) => {
      // The message's box sits in the toast bar beside its icon.
      const found = screen.getByText(text).parentElement!.querySelector('[data-slot="toast-icon"]');
      if (!found) throw new Error(`no Ayah icon beside "${text}"`);
      const glyph = found.querySelector('svg')!;
      const box = glyph.getBoundingClientRect();
      return {
        badge: getComputedStyle(found).backgroundColor,
        glyph: getComputedStyle(glyph).color,
        visible: box.width > 0 && box.height > 0 && getComputedStyle(glyph).opacity === '1',
      };
    };
    await expect(dark).not.toBe('');
    // The check and the cross: whole glyphs in the foreground of a success or destructive badge.
    await expect(icon('Goal saved')).toEqual({
      badge: token('--ay-color-success'),
      glyph: token('--ay-color-background'),
      visible: true,
    });
    await expect(icon('Something went wrong')).toEqual({
      badge: token('--ay-color-destructive'),
      glyph: token('--ay-color-destructive-foreground'),
      visible: true,
    });
    // The spinner: the muted foreground on the dark toast, never the background's own colour.
    const spinner = icon('Saving…');
    await expect(spinner.visible).toBe(true);
    await expect(spinner.glyph).toBe(token('--ay-color-muted-foreground'));
    await expect(spinner.glyph).not.toBe(token('--ay-color-background'));

    // The dark root fills the whole frame, not only behind the buttons.
    await expect(root.getBoundingClientRect().height).toBeGreaterThanOrEqual(window.innerHeight);
  },
};
