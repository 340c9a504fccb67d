import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from 'ayah-coach';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from 'ayah-coach';
import { MoreHorizontalIcon, PencilIcon, TrashIcon } from 'ayah-coach';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';

const onRename = fn();
const onArchive = fn();
const onDelete = fn();

const meta = {
  title: 'UI/DropdownMenu',
  component: DropdownMenu,
  beforeEach: () => {
    onRename.mockClear();
    onArchive.mockClear();
    onDelete.mockClear();
  },
  render: (args) => (
    <DropdownMenu {...args}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label="Chat options">
          <MoreHorizontalIcon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start">
        <DropdownMenuLabel>Fractions homework</DropdownMenuLabel>
        <DropdownMenuItem onSelect={onRename}>
          <PencilIcon />
          Rename
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onArchive}>Archive</DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={onDelete}>
          <TrashIcon />
          Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  ),
} satisfies Meta<typeof DropdownMenu>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Opened with the keyboard and left open. */
export const Open: Story = {
  play: async ({ canvasElement }) => {
    const trigger = within(canvasElement).getByRole('button', { name: 'Chat options' });
    await userEvent.tab();
    await expect(trigger).toHaveFocus();
    await userEvent.keyboard('{Enter}');

    const menu = await screen.findByRole('menu');
    await expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await expect(menu.closest('.ayah')).toHaveAttribute('data-slot', 'ayah-portal');
    // Not modal: the host page around the widget is not hidden from assistive technology.
    await expect(canvasElement.closest('[aria-hidden="true"]')).toBeNull();

    const items = within(menu).getAllByRole('menuitem');
    await expect(items.map((item) => item.textContent)).toEqual(['Rename', 'Archive', 'Delete']);
    await waitFor(() => expect(items[0]).toHaveFocus());
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    await expect(items[2]).toHaveFocus();
    await expect(items[2]).toHaveAttribute('data-variant', 'destructive');
    // Highlighted destructive item: white text on red.
    await expect(getComputedStyle(items[2]!).backgroundColor).toBe('rgb(185, 28, 28)');
    // Radix stops at the ends unless `loop` is set; ArrowUp goes back.
    await userEvent.keyboard('{ArrowDown}');
    await expect(items[2]).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    await expect(items[1]).toHaveFocus();
  },
};

export const SelectWithKeyboard: Story = {
  play: async ({ canvasElement }) => {
    const trigger = within(canvasElement).getByRole('button', { name: 'Chat options' });
    trigger.focus();
    await userEvent.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    await waitFor(() =>
      expect(within(menu).getByRole('menuitem', { name: 'Rename' })).toHaveFocus(),
    );
    await userEvent.keyboard('{End}{Enter}');
    await expect(onDelete).toHaveBeenCalledOnce();
    await expect(onRename).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await expect(trigger).toHaveFocus();
  },
};

export const EscapeCloses: Story = {
  play: async ({ canvasElement }) => {
    const trigger = within(canvasElement).getByRole('button', { name: 'Chat options' });
    await userEvent.click(trigger);
    await screen.findByRole('menu');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await expect(trigger).toHaveFocus();
    await expect(onArchive).not.toHaveBeenCalled();
  },
};
