import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from 'ayah-coach';
import { ChatSidebar } from 'ayah-coach/chat';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';

import { fakeChatAdapter, pending } from '../../fakes/chat';
import { clearToasts, Frame, toastsSettled } from '../support';

const meta = {
  title: 'Chat/ChatSidebar',
  component: ChatSidebar,
  args: {
    adapter: fakeChatAdapter(),
    activeSessionId: 's1',
    onNewChat: fn(),
    onSelectSession: fn(),
    onSessionRemoved: fn(),
    userMenu: (
      <Button variant="ghost" className="ay:w-full ay:justify-start">
        Sam Student
      </Button>
    ),
  },
  render: (args) => (
    <Frame>
      <ChatSidebar {...args} />
    </Frame>
  ),
  beforeEach: clearToasts,
} satisfies Meta<typeof ChatSidebar>;

export default meta;
type Story = StoryObj<typeof meta>;

async function openMenu(canvasElement: HTMLElement, title: string) {
  const canvas = within(canvasElement);
  await userEvent.click(await canvas.findByRole('button', { name: `Options for ${title}` }));
  return screen.findByRole('menu');
}

/** The full sidebar: actions, the chats (the open one marked current) and the user menu. */
export const Expanded: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const list = await canvas.findByRole('list', { name: 'Chats' });
    await expect(within(list).getAllByRole('listitem')).toHaveLength(4);
    await expect(within(list).getByRole('button', { name: 'Fractions homework' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await userEvent.click(canvas.getByRole('button', { name: 'New Chat' }));
    await expect(args.onNewChat).toHaveBeenCalled();
    await expect(canvas.getByRole('link', { name: 'Goals' })).toHaveAttribute('href', '/goal');
  },
};

/** Collapsed to a rail of icons; the controls keep their names. */
export const Collapsed: Story = {
  args: { defaultCollapsed: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const toggle = canvas.getByRole('button', { name: 'Expand sidebar' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(canvas.queryByRole('list', { name: 'Chats' })).not.toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: 'Search Chats' })).toBeVisible();
    await userEvent.click(toggle);
    await expect(await canvas.findByRole('list', { name: 'Chats' })).toBeVisible();
  },
};

/** The chats are loading. */
export const Loading: Story = {
  args: { adapter: fakeChatAdapter({ listSessions: (_q, options) => pending(options) }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Loading chats…');
  },
};

/** Rename from the chat's menu: the dialog with the current name. */
export const Rename: Story = {
  args: { adapter: fakeChatAdapter() },
  play: async ({ canvasElement }) => {
    const menu = await openMenu(canvasElement, 'Fractions homework');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename chat' });
    const field = within(dialog).getByRole('textbox', { name: 'Chat name' });
    await expect(field).toHaveValue('Fractions homework');
    await userEvent.clear(field);
    await userEvent.type(field, 'Adding fractions');
    await expect(within(dialog).getByRole('button', { name: 'Save' })).toBeEnabled();
  },
};

/** Renamed: the toast, the new name, and focus back on the chat's menu button. */
export const Renamed: Story = {
  args: { adapter: fakeChatAdapter() },
  play: async ({ canvasElement }) => {
    const menu = await openMenu(canvasElement, 'Fractions homework');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename chat' });
    const field = within(dialog).getByRole('textbox', { name: 'Chat name' });
    await userEvent.clear(field);
    await userEvent.type(field, 'Adding fractions{Enter}');
    await expect(await screen.findByText('Chat renamed successfully')).toBeVisible();
    const canvas = within(canvasElement);
    await waitFor(() =>
      expect(canvas.getByRole('button', { name: 'Options for Adding fractions' })).toHaveFocus(),
    );
    await toastsSettled();
  },
};

/** Archived: the chat leaves the list, and the toast says so. */
export const Archive: Story = {
  args: { adapter: fakeChatAdapter() },
  play: async ({ canvasElement, args }) => {
    const menu = await openMenu(canvasElement, 'The French Revolution');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Archive' }));
    await expect(await screen.findByText('Chat archived successfully')).toBeVisible();
    await expect(
      within(canvasElement).queryByRole('button', { name: 'The French Revolution' }),
    ).not.toBeInTheDocument();
    await expect(args.onSessionRemoved).toHaveBeenCalledWith('s3');
    await toastsSettled();
  },
};

/** Delete asks first: 'Delete chat?'. */
export const DeleteConfirm: Story = {
  args: { adapter: fakeChatAdapter() },
  play: async ({ canvasElement }) => {
    const menu = await openMenu(canvasElement, 'Essay outline: Macbeth');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete chat?' });
    await expect(dialog).toHaveAccessibleDescription(
      '“Essay outline: Macbeth” will be deleted permanently.',
    );
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus(),
    );
  },
};
