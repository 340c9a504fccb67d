import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from 'ayah-coach';
import { ConfirmDialog } from 'ayah-coach';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';

const meta = {
  title: 'UI/ConfirmDialog',
  component: ConfirmDialog,
  args: {
    title: 'Delete chat?',
    description: 'This conversation will be deleted permanently.',
    confirmLabel: 'Delete',
    variant: 'destructive',
    trigger: <Button variant="outline">Delete chat</Button>,
    onConfirm: fn(),
    onCancel: fn(),
    onOpenChange: fn(),
  },
} satisfies Meta<typeof ConfirmDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Destructive: Story = {
  play: async ({ canvasElement, args }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Delete chat' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete chat?' });
    await expect(dialog).toHaveAccessibleDescription(
      'This conversation will be deleted permanently.',
    );
    // Focus starts on the least harmful choice.
    await expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    await expect(confirm).toHaveClass('ay:bg-destructive');
    await userEvent.tab();
    await expect(confirm).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onConfirm).toHaveBeenCalledOnce();
    // It stays open until the caller closes it.
    await expect(dialog).toBeInTheDocument();
  },
};

export const Cancelled: Story = {
  args: { defaultOpen: true },
  play: async ({ args }) => {
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await expect(args.onCancel).toHaveBeenCalledOnce();
    await expect(args.onOpenChange).toHaveBeenCalledWith(false);
    await expect(args.onConfirm).not.toHaveBeenCalled();
  },
};

/** The delete is running: confirm shows a spinner, nothing can dismiss the dialog. */
export const Busy: Story = {
  args: { open: true, busy: true },
  play: async ({ args }) => {
    const dialog = await screen.findByRole('alertdialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    await expect(confirm).toHaveAttribute('aria-busy', 'true');
    await expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await userEvent.click(confirm);
    await userEvent.keyboard('{Escape}');
    await expect(args.onConfirm).not.toHaveBeenCalled();
    await expect(args.onOpenChange).not.toHaveBeenCalled();
    await expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  },
};

export const Neutral: Story = {
  args: {
    open: true,
    trigger: undefined,
    title: 'Archive all chats?',
    description: 'You can unarchive them from Data Controls.',
    confirmLabel: 'Archive all',
    variant: 'default',
  },
  play: async () => {
    const dialog = await screen.findByRole('alertdialog', { name: 'Archive all chats?' });
    await expect(within(dialog).getByRole('button', { name: 'Archive all' })).toHaveClass(
      'ay:bg-primary',
    );
  },
};
