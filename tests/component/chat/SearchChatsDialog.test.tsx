import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { fakeChatAdapter, pending, sampleSessions } from '../../../fakes/chat';
import type { ChatAdapter } from '../../../src/api';
import { SearchChatsDialog } from '../../../src/chat/SearchChatsDialog';
import { REFRESH_CHAT_HISTORY_EVENT } from '../../../src/lib/messages';
import { clearToasts, renderWithToasts } from '../render';

afterEach(() => clearToasts());

function renderSearch(overrides: Partial<ChatAdapter> | ChatAdapter = {}) {
  const onSelect = vi.fn();
  const onOpenChange = vi.fn();
  const base = 'unarchiveSession' in overrides ? (overrides as ChatAdapter) : null;
  const search = vi.fn(overrides.search ?? fakeChatAdapter().search);
  const view = renderWithToasts(
    <SearchChatsDialog
      adapter={base ? { ...base, search } : fakeChatAdapter({ ...overrides, search })}
      open
      onOpenChange={onOpenChange}
      onSelect={onSelect}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Search chats' });
  const input = within(dialog).getByRole('searchbox', { name: 'Search chats' });
  return { ...view, dialog, input, onSelect, onOpenChange, search };
}

describe('<SearchChatsDialog>', () => {
  it('shows the recent chats while the search is blank, with focus in the search box', async () => {
    const { dialog, input } = renderSearch();
    expect(input).toHaveFocus();
    const recent = await within(dialog).findByRole('region', { name: 'Recent chats' });
    expect(within(recent).getAllByRole('button')).toHaveLength(sampleSessions.length);
  });

  it('searches once typing pauses and picks a result', async () => {
    const { user, dialog, input, search, onSelect, onOpenChange } = renderSearch();
    await user.type(input, 'fr');
    expect(screen.getByRole('status')).toHaveTextContent('Searching…');
    const results = await within(dialog).findByRole('region', { name: 'Results' });
    expect(search).toHaveBeenCalledTimes(1);
    expect(search).toHaveBeenCalledWith({ search: 'fr', limit: 20, page: 1 }, expect.anything());
    expect(screen.getByRole('status')).toHaveTextContent('2 chats found');
    await user.click(within(results).getByRole('button', { name: /The French Revolution/ }));
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ id: 's3' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  // Issue 25 item 6: archived chats are found, marked, and can be unarchived from the result.
  it('finds archived chats, marked, with Unarchive', async () => {
    const adapter = fakeChatAdapter();
    await adapter.archiveSession('s3');
    const unarchive = vi.spyOn(adapter, 'unarchiveSession');
    const refreshed = vi.fn();
    window.addEventListener(REFRESH_CHAT_HISTORY_EVENT, refreshed);
    try {
      const { user, dialog, input } = renderSearch(adapter);
      await user.type(input, 'french');
      const results = await within(dialog).findByRole('region', { name: 'Results' });
      const hit = within(results).getByRole('button', { name: /^The French Revolution/ });
      expect(hit).toHaveTextContent('Archived');
      await user.click(
        within(results).getByRole('button', { name: 'Unarchive The French Revolution' }),
      );
      expect(unarchive).toHaveBeenCalledWith('s3', expect.anything());
      expect(await screen.findByText('Chat unarchived successfully')).toBeInTheDocument();
      await waitFor(() => expect(hit).not.toHaveTextContent('Archived'));
      expect(within(results).queryByRole('button', { name: /^Unarchive/ })).toBeNull();
      expect(refreshed).toHaveBeenCalled();
    } finally {
      window.removeEventListener(REFRESH_CHAT_HISTORY_EVENT, refreshed);
    }
  });

  it('says when nothing matches', async () => {
    const { user, dialog, input } = renderSearch();
    await user.type(input, 'zebra');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('No chats found'));
    expect(within(dialog).getAllByText('No chats found')).toHaveLength(2); // shown, and announced
  });

  it('shows the recent chats again when the search is cleared', async () => {
    const { user, dialog, input } = renderSearch({ search: (_q, options) => pending(options) });
    await user.type(input, 'fr');
    await user.clear(input);
    expect(await within(dialog).findByRole('region', { name: 'Recent chats' })).toBeInTheDocument();
  });

  it('moves through the chats with the arrow keys', async () => {
    const { user, dialog, input, onSelect } = renderSearch();
    await within(dialog).findByRole('region', { name: 'Recent chats' });
    await user.keyboard('{ArrowDown}');
    const buttons = within(dialog).getAllByRole('button', {
      name: /homework|prep|Revolution|Macbeth/,
    });
    expect(buttons[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}');
    expect(buttons[1]).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(input).toHaveFocus();
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() =>
      expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ id: 's1' })),
    );
  });
});
