import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { apiError, fakeChatAdapter, page, sampleSessions, session } from '../../../fakes/chat';
import type { ChatAdapter } from '../../../src/api';
import { ChatSidebar, type ChatSidebarProps } from '../../../src/chat/ChatSidebar';
import { REFRESH_CHAT_HISTORY_EVENT } from '../../../src/lib/messages';
import { findToast } from '../../support/toasts';
import { clearToasts, renderWithToasts } from '../render';

afterEach(() => clearToasts());

function renderSidebar(
  overrides: Partial<ChatAdapter> = {},
  props: Partial<ChatSidebarProps> = {},
) {
  const adapter = fakeChatAdapter(overrides);
  return renderWithToasts(<ChatSidebar adapter={adapter} {...props} />);
}

async function chatList() {
  return screen.findByRole('list', { name: 'Chats' });
}

async function openMenu(user: ReturnType<typeof renderSidebar>['user'], title: string) {
  const trigger = await screen.findByRole('button', { name: `Options for ${title}` });
  trigger.focus();
  await user.keyboard('{Enter}');
  return { trigger, menu: await screen.findByRole('menu') };
}

/** The archive's toast: its words and its Undo button. */
async function archivedToast(): Promise<HTMLElement> {
  const words = await screen.findByText('Chat archived successfully');
  return words.closest('[role]') as HTMLElement;
}

describe('<ChatSidebar>', () => {
  it('lists the chats and opens one', async () => {
    const onSelectSession = vi.fn();
    const { user } = renderSidebar({}, { onSelectSession, activeSessionId: 's2' });
    const list = await chatList();
    expect(within(list).getAllByRole('listitem')).toHaveLength(sampleSessions.length);
    expect(within(list).getByRole('button', { name: 'Photosynthesis quiz prep' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await user.click(within(list).getByRole('button', { name: 'Fractions homework' }));
    expect(onSelectSession).toHaveBeenCalledWith('s1');
  });

  it('offers New Chat, Search Chats and the Goals link', async () => {
    const onNewChat = vi.fn();
    const { user } = renderSidebar({}, { onNewChat, goalsHref: '/goals-page' });
    await user.click(screen.getByRole('button', { name: 'New Chat' }));
    expect(onNewChat).toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Goals' })).toHaveAttribute('href', '/goals-page');
    await user.click(screen.getByRole('button', { name: 'Search Chats' }));
    expect(await screen.findByRole('dialog', { name: 'Search chats' })).toBeInTheDocument();
  });

  it("follows the Goals link through the host's router, except for a modified click", async () => {
    const onNavigate = vi.fn();
    const { user } = renderSidebar({}, { onNavigate });
    const goals = screen.getByRole('link', { name: 'Goals' });
    await user.click(goals);
    expect(onNavigate).toHaveBeenCalledWith('/goal');
    // A Ctrl-click is the browser's (a new tab): the host's router is not told.
    const ctrlClick = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true });
    goals.dispatchEvent(ctrlClick);
    expect(onNavigate).toHaveBeenCalledTimes(1);
    expect(ctrlClick.defaultPrevented).toBe(false);
  });

  it('collapses to icons that keep their names', async () => {
    const onCollapsedChange = vi.fn();
    const { user } = renderSidebar({}, { onCollapsedChange });
    await chatList();
    const toggle = screen.getByRole('button', { name: 'Collapse sidebar' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.click(toggle);
    expect(onCollapsedChange).toHaveBeenCalledWith(true);
    expect(toggle).toHaveAccessibleName('Expand sidebar');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('list', { name: 'Chats' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New Chat' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Goals' })).toBeInTheDocument();
  });

  it('shows an empty list when loading fails', async () => {
    renderSidebar({ listSessions: () => Promise.reject(apiError()) });
    expect(await screen.findByText('No chats yet')).toBeInTheDocument();
  });

  it("reloads on the 'refresh-chat-history' window event", async () => {
    const listSessions = vi.fn(async () => page(sampleSessions.slice(0, 1)));
    renderSidebar({ listSessions });
    await chatList();
    listSessions.mockResolvedValueOnce(page([session('new', 'Brand new chat'), ...sampleSessions]));
    act(() => {
      window.dispatchEvent(new Event(REFRESH_CHAT_HISTORY_EVENT));
    });
    expect(await screen.findByRole('button', { name: 'Brand new chat' })).toBeInTheDocument();
  });

  it('renames a chat from its menu, with the keyboard', async () => {
    const { user } = renderSidebar();
    const { trigger, menu } = await openMenu(user, 'Fractions homework');
    await user.click(within(menu).getByRole('menuitem', { name: 'Rename' }));

    const dialog = await screen.findByRole('dialog', { name: 'Rename chat' });
    const field = within(dialog).getByRole('textbox', { name: 'Chat name' });
    expect(field).toHaveValue('Fractions homework');
    await user.clear(field);
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.type(field, 'Adding fractions{Enter}');

    expect(await findToast('Chat renamed successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Adding fractions' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Options for Adding fractions' })).toHaveFocus(),
    );
    expect(trigger.isConnected).toBe(true);
  });

  it("keeps the rename dialog open on 'Change name failed!'", async () => {
    const { user } = renderSidebar({ renameSession: () => Promise.reject(apiError()) });
    const { menu } = await openMenu(user, 'Fractions homework');
    await user.click(within(menu).getByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename chat' });
    await user.type(within(dialog).getByRole('textbox'), ' 2{Enter}');
    expect(await findToast('Change name failed!', 'alert')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox')).toHaveValue('Fractions homework 2');
  });

  it('archives a chat', async () => {
    const onSessionRemoved = vi.fn();
    const { user } = renderSidebar({}, { onSessionRemoved });
    const { menu } = await openMenu(user, 'The French Revolution');
    await user.click(within(menu).getByRole('menuitem', { name: 'Archive' }));
    expect(await archivedToast()).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('button', { name: 'The French Revolution' })).not.toBeInTheDocument();
    expect(onSessionRemoved).toHaveBeenCalledWith('s3');
  });

  // Issue 25 item 6: the archive toast offers Undo for its 4 seconds.
  it('undoes an archive from its toast', async () => {
    const adapter = fakeChatAdapter();
    const unarchive = vi.spyOn(adapter, 'unarchiveSession');
    const { user } = renderWithToasts(<ChatSidebar adapter={adapter} />);
    const { menu } = await openMenu(user, 'The French Revolution');
    await user.click(within(menu).getByRole('menuitem', { name: 'Archive' }));
    const toast = await archivedToast();
    expect(screen.queryByRole('button', { name: 'The French Revolution' })).not.toBeInTheDocument();
    await user.click(within(toast).getByRole('button', { name: 'Undo' }));
    expect(unarchive).toHaveBeenCalledWith('s3', expect.anything());
    expect(await findToast('Chat unarchived successfully')).toBeInTheDocument();
    expect(
      await screen.findByRole('button', { name: 'The French Revolution' }),
    ).toBeInTheDocument();
  });

  it('deletes a chat after confirming', async () => {
    const onSessionRemoved = vi.fn();
    const deleteSession = vi.fn(async () => ({ message: 'ok' }));
    const { user } = renderSidebar({ deleteSession }, { onSessionRemoved });
    const { menu } = await openMenu(user, 'Essay outline: Macbeth');
    await user.click(within(menu).getByRole('menuitem', { name: 'Delete' }));

    const confirm = await screen.findByRole('alertdialog', { name: 'Delete chat?' });
    expect(confirm).toHaveAccessibleDescription(
      '“Essay outline: Macbeth” will be deleted permanently.',
    );
    expect(deleteSession).not.toHaveBeenCalled();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await findToast('Chat deleted successfully')).toBeInTheDocument();
    expect(deleteSession).toHaveBeenCalledWith('s4', expect.anything());
    expect(onSessionRemoved).toHaveBeenCalledWith('s4');
    expect(
      screen.queryByRole('button', { name: 'Essay outline: Macbeth' }),
    ).not.toBeInTheDocument();
  });

  it("keeps the chat on 'Failed to delete chat' and on Cancel", async () => {
    const { user } = renderSidebar({ deleteSession: () => Promise.reject(apiError()) });
    let { menu } = await openMenu(user, 'Fractions homework');
    await user.click(within(menu).getByRole('menuitem', { name: 'Delete' }));
    let confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

    ({ menu } = await openMenu(user, 'Fractions homework'));
    await user.click(within(menu).getByRole('menuitem', { name: 'Delete' }));
    confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await findToast('Failed to delete chat', 'alert')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Fractions homework' })).toBeInTheDocument();
  });

  it('renders the user menu slot', async () => {
    renderSidebar({}, { userMenu: <button type="button">Profile Settings</button> });
    await chatList();
    expect(screen.getByRole('button', { name: 'Profile Settings' })).toBeInTheDocument();
  });
});
