import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import {
  apiError,
  archivedSessions,
  emailUser,
  type FakeSettingsAdapter,
  fakeSettingsAdapter,
} from '../../../fakes/settings';
import { REFRESH_CHAT_HISTORY_EVENT } from '../../../src/lib/messages';
import { Settings } from '../../../src/settings/Settings';
import { clearToasts, renderWithToasts } from '../render';

afterEach(() => clearToasts());

async function openData(adapter: FakeSettingsAdapter = fakeSettingsAdapter()) {
  let refreshes = 0;
  const count = () => refreshes++;
  window.addEventListener(REFRESH_CHAT_HISTORY_EVENT, count);
  const view = renderWithToasts(<Settings adapter={adapter} user={emailUser} />);
  await view.user.click(screen.getByRole('tab', { name: 'Data Controls' }));
  return {
    ...view,
    adapter,
    refreshes: () => refreshes,
    stop: () => window.removeEventListener(REFRESH_CHAT_HISTORY_EVENT, count),
  };
}

const archivedList = () => screen.findByRole('list', { name: 'Archived chats' });

describe('Settings: Data Controls', () => {
  it('says when nothing is archived', async () => {
    await openData(fakeSettingsAdapter({}, { archived: [] }));
    expect(await screen.findByText('No archived chats.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Archived chat pages' })).toBeNull();
  });

  it('lists 50 a page and pages through them', async () => {
    const { user, adapter } = await openData(
      fakeSettingsAdapter({}, { archived: archivedSessions(75) }),
    );
    expect(within(await archivedList()).getAllByRole('listitem')).toHaveLength(50);
    const pages = screen.getByRole('navigation', { name: 'Archived chat pages' });
    expect(within(pages).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Archived chat 51')).toBeInTheDocument();
    expect(within(await archivedList()).getAllByRole('listitem')).toHaveLength(25);
    expect(within(pages).getByText('Page 2')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(adapter.calls.filter((c) => c.method === 'listArchived').map((c) => c.args[0])).toEqual([
      { limit: 50, page: 1 },
      { limit: 50, page: 2 },
    ]);
  });

  it("unarchives a chat, toasts and fires 'refresh-chat-history'", async () => {
    const view = await openData();
    await archivedList();
    await view.user.click(screen.getByRole('button', { name: 'Unarchive Archived chat 2' }));
    expect(await screen.findByText('Chat unarchived successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Archived chat 2')).toBeNull());
    expect(view.refreshes()).toBe(1);
    view.stop();
  });

  it("a failed unarchive says 'Failed to unarchive chat' and keeps the chat", async () => {
    const view = await openData(
      fakeSettingsAdapter({ unarchiveSession: () => Promise.reject(apiError(500)) }),
    );
    await archivedList();
    await view.user.click(screen.getByRole('button', { name: 'Unarchive Archived chat 1' }));
    expect(await screen.findByText('Failed to unarchive chat')).toBeInTheDocument();
    expect(screen.getByText('Archived chat 1')).toBeInTheDocument();
    expect(view.refreshes()).toBe(0);
    view.stop();
  });

  it('deletes an archived chat after its confirmation; cancel keeps it', async () => {
    const view = await openData();
    await archivedList();
    await view.user.click(screen.getByRole('button', { name: 'Delete Archived chat 1' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Delete archived chat?' });
    expect(confirm).toHaveTextContent('"Archived chat 1" will be deleted for good.');
    await view.user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(view.adapter.calls.some((c) => c.method === 'deleteArchivedSession')).toBe(false);
    await view.user.click(screen.getByRole('button', { name: 'Delete Archived chat 1' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Delete archived chat?' });
    await view.user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Chat deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Archived chat 1')).toBeNull());
    expect(view.refreshes()).toBe(1);
    view.stop();
  });

  it.each([
    [
      'Archive all chats',
      'Archive all chats?',
      'Archive all',
      'archiveAll',
      'All chats archived successfully',
      'Failed to archive all chats',
    ],
    [
      'Delete all chats',
      'Delete all chats?',
      'Delete all',
      'deleteAll',
      'All chats deleted successfully',
      'Failed to delete all chats',
    ],
  ] as const)(
    '%s: confirmation, then the spec toast, or its failure',
    async (button, title, label, method, ok, fail) => {
      const good = await openData();
      await archivedList();
      await good.user.click(screen.getByRole('button', { name: button }));
      const dialog = await screen.findByRole('alertdialog', { name: title });
      expect(good.adapter.calls.some((c) => c.method === method)).toBe(false);
      await good.user.click(within(dialog).getByRole('button', { name: label }));
      expect(await screen.findByText(ok)).toBeInTheDocument();
      expect(good.refreshes()).toBe(1);
      good.stop();
      good.unmount();
      clearToasts();

      const bad = await openData(
        fakeSettingsAdapter({ [method]: () => Promise.reject(apiError(500)) }),
      );
      await archivedList();
      await bad.user.click(screen.getByRole('button', { name: button }));
      await bad.user.click(
        within(await screen.findByRole('alertdialog', { name: title })).getByRole('button', {
          name: label,
        }),
      );
      expect(await screen.findByText(fail)).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      expect(bad.refreshes()).toBe(0);
      bad.stop();
    },
  );
});
