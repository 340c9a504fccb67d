import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from 'ayah-coach';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from 'ayah-coach';
import { Field } from 'ayah-coach';
import { Input } from 'ayah-coach';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';

const meta = {
  title: 'UI/Dialog',
  component: Dialog,
  render: (args) => (
    <Dialog {...args}>
      <DialogTrigger asChild>
        <Button variant="outline">Rename chat</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Rename chat</DialogTitle>
          <DialogDescription>Give this conversation a name you will recognise.</DialogDescription>
        </DialogHeader>
        <Field label="Chat name">
          <Input defaultValue="Fractions homework" />
        </Field>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button>Save</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  ),
} satisfies Meta<typeof Dialog>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Closed: Story = {
  play: async ({ canvasElement }) => {
    const trigger = within(canvasElement).getByRole('button', { name: 'Rename chat' });
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  },
};

/** Opened from the keyboard: focus moves in, is trapped, and Escape returns it to the trigger. */
export const Open: Story = {
  play: async ({ canvasElement, step }) => {
    const trigger = within(canvasElement).getByRole('button', { name: 'Rename chat' });

    await step('Escape closes and returns focus to the trigger', async () => {
      trigger.focus();
      await userEvent.keyboard('{Enter}');
      await screen.findByRole('dialog', { name: 'Rename chat' });
      await userEvent.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await expect(trigger).toHaveFocus();
    });

    await step('open it again and leave it open', async () => {
      await userEvent.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog', { name: 'Rename chat' });
      await expect(dialog).toHaveAccessibleDescription(
        'Give this conversation a name you will recognise.',
      );
      // Rendered in a portal, but still inside Ayah's CSS scope.
      await expect(dialog.closest('.ayah')).toHaveAttribute('data-slot', 'ayah-portal');
      await expect(getComputedStyle(dialog).position).toBe('fixed');

      // Focus starts on the first field and Tab cycles inside the dialog.
      const input = within(dialog).getByRole('textbox', { name: 'Chat name' });
      await expect(input).toHaveFocus();
      await userEvent.tab();
      await expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
      await userEvent.tab();
      await userEvent.tab();
      await expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
      await userEvent.tab();
      await expect(input).toHaveFocus();
    });
  },
};

export const CloseButton: Story = {
  play: async ({ canvasElement }) => {
    const trigger = within(canvasElement).getByRole('button', { name: 'Rename chat' });
    await userEvent.click(trigger);
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await expect(trigger).toHaveFocus();
  },
};
