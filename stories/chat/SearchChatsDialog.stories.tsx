import type { Meta, StoryObj } from '@storybook/react-vite';
import { SearchChatsDialog } from 'ayah-coach/chat';
import { expect, fn, screen, userEvent, within } from 'storybook/test';

import { fakeChatAdapter, pending } from '../../fakes/chat';

const meta = {
  title: 'Chat/SearchChatsDialog',
  component: SearchChatsDialog,
  args: {
    adapter: fakeChatAdapter(),
    open: true,
    onOpenChange: fn(),
    onSelect: fn(),
  },
} satisfies Meta<typeof SearchChatsDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

async function searchBox() {
  const dialog = await screen.findByRole('dialog', { name: 'Search chats' });
  return { dialog, input: within(dialog).getByRole('searchbox', { name: 'Search chats' }) };
}

/** Nothing typed: up to 10 recent chats. */
export const EmptyWithRecentChats: Story = {
  play: async () => {
    const { dialog, input } = await searchBox();
    await expect(input).toHaveFocus();
    const recent = await within(dialog).findByRole('region', { name: 'Recent chats' });
    await expect(within(recent).getAllByRole('button')).toHaveLength(4);
  },
};

/** Typing: the search waits for a pause, then runs (here it never answers). */
export const Typing: Story = {
  args: { adapter: fakeChatAdapter({ search: (_q, options) => pending(options) }) },
  play: async () => {
    const { input } = await searchBox();
    await userEvent.type(input, 'fract');
    await expect(screen.getByRole('status')).toHaveTextContent('Searching…');
  },
};

/** Matches in titles and messages; picking one opens it and closes the dialog. */
export const Results: Story = {
  play: async ({ args }) => {
    const { dialog, input } = await searchBox();
    await userEvent.type(input, 'fr');
    const results = await within(dialog).findByRole('region', { name: 'Results' });
    await expect(within(results).getAllByRole('button')).toHaveLength(2);
    await expect(screen.getByRole('status')).toHaveTextContent('2 chats found');
    await userEvent.keyboard('{ArrowDown}{Enter}');
    await expect(args.onSelect).toHaveBeenCalledWith(expect.objectContaining({ id: 's1' }));
    await expect(args.onOpenChange).toHaveBeenCalledWith(false);
  },
};

/** Nothing matches. */
export const NoResults: Story = {
  play: async () => {
    const { dialog, input } = await searchBox();
    await userEvent.type(input, 'zebra');
    await expect(
      await within(dialog).findByText('No chats found', { selector: 'p:not([role])' }),
    ).toBeVisible();
  },
};
