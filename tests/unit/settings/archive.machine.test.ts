import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom, waitFor } from 'xstate';

import {
  apiError,
  archivedSessions,
  deferred,
  type FakeSettingsAdapter,
  fakeSettingsAdapter,
} from '../../../fakes/settings';
import { archiveLogic, archiveMachine } from '../../../src/settings/archive.machine';
import type { MessageResponse } from '../../../src/wire';
import { startRecording } from '../../support/recording';

type Snapshot = SnapshotFrom<typeof archiveMachine>;

function start(adapter: FakeSettingsAdapter = fakeSettingsAdapter()) {
  const { actor, emitted: notices } = startRecording(archiveLogic(adapter));
  const toasts = () =>
    notices.flatMap((n) => (n.type === 'notify' ? [`${n.tone}: ${n.message}`] : []));
  const changes = () => notices.filter((n) => n.type === 'chats.changed').length;
  return { actor, adapter, toasts, changes };
}

const loaded = (actor: ReturnType<typeof start>['actor']) =>
  waitFor(actor, (s: Snapshot) => s.matches({ list: 'loaded' }) && s.matches({ action: 'idle' }));

const lists = (adapter: FakeSettingsAdapter) =>
  adapter.calls.filter((c) => c.method === 'listArchived').map((c) => c.args[0]);

describe('archive machine: the list', () => {
  it('fails loudly without an adapter', async () => {
    const actor = createActor(archiveMachine).start();
    await waitFor(actor, (s) => s.matches({ list: 'failed' }));
  });

  it('loads the first page of 50', async () => {
    const { actor, adapter } = start();
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    await loaded(actor);
    expect(actor.getSnapshot().context.sessions.map((s) => s.id)).toEqual(['a1', 'a2', 'a3']);
    expect(lists(adapter)).toEqual([{ limit: 50, page: 1 }]);
  });

  it('pages by 50: next while there is more, previous back to 1, neither beyond', async () => {
    const { actor, adapter } = start(fakeSettingsAdapter({}, { archived: archivedSessions(120) }));
    await loaded(actor);
    expect(actor.getSnapshot().can({ type: 'archive.previous' })).toBe(false);
    expect(actor.getSnapshot().context).toMatchObject({ hasMore: true, total: 120 });
    actor.send({ type: 'archive.next' });
    await loaded(actor);
    actor.send({ type: 'archive.next' });
    await loaded(actor);
    const snapshot = actor.getSnapshot();
    expect(snapshot.context.page).toBe(3);
    expect(snapshot.context.sessions).toHaveLength(20);
    expect(snapshot.context.sessions[0]!.title).toBe('Archived chat 101');
    expect(snapshot.can({ type: 'archive.next' })).toBe(false);
    actor.send({ type: 'archive.previous' });
    await loaded(actor);
    expect(lists(adapter).map((q) => (q as { page: number }).page)).toEqual([1, 2, 3, 2]);
  });

  it('a failed list offers a retry that loads again', async () => {
    let fail = true;
    const base = fakeSettingsAdapter();
    const adapter = fakeSettingsAdapter({
      listArchived: (query, options) =>
        fail ? Promise.reject(apiError(500)) : base.listArchived(query, options),
    });
    const { actor } = start(adapter);
    await waitFor(actor, (s) => s.matches({ list: 'failed' }));
    fail = false;
    actor.send({ type: 'archive.refresh' });
    await loaded(actor);
    expect(actor.getSnapshot().context.sessions).toHaveLength(3);
  });

  it('a page emptied by the last action shows the page before it', async () => {
    const adapter = fakeSettingsAdapter({}, { archived: archivedSessions(51) });
    const { actor } = start(adapter);
    await loaded(actor);
    actor.send({ type: 'archive.next' });
    await loaded(actor);
    expect(actor.getSnapshot().context.sessions.map((s) => s.id)).toEqual(['a51']);
    actor.send({ type: 'session.unarchive', sessionId: 'a51' });
    await waitFor(actor, (s) => s.context.page === 1 && s.matches({ list: 'loaded' }));
    expect(actor.getSnapshot().context.sessions).toHaveLength(50);
  });
});

describe('archive machine: the actions', () => {
  it('unarchives at once (busy), then toasts, fires chats.changed and reloads', async () => {
    const { actor, adapter, toasts, changes } = start();
    await loaded(actor);
    actor.send({ type: 'session.unarchive', sessionId: 'a2' });
    expect(actor.getSnapshot().matches({ action: 'unarchiving' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.context.sessions.length === 2);
    expect(toasts()).toEqual(['success: Chat unarchived successfully']);
    expect(changes()).toBe(1);
    expect(adapter.calls.find((c) => c.method === 'unarchiveSession')?.args).toEqual(['a2']);
  });

  it("a failed unarchive says 'Failed to unarchive chat' and changes nothing", async () => {
    const { actor, toasts, changes } = start(
      fakeSettingsAdapter({ unarchiveSession: () => Promise.reject(apiError(500)) }),
    );
    await loaded(actor);
    actor.send({ type: 'session.unarchive', sessionId: 'a1' });
    await waitFor(actor, (s) => s.matches({ action: 'idle' }));
    expect(toasts()).toEqual(['error: Failed to unarchive chat']);
    expect(changes()).toBe(0);
  });

  it('ignores an id that is not on the page', async () => {
    const { actor } = start();
    await loaded(actor);
    actor.send({ type: 'session.unarchive', sessionId: 'nope' });
    actor.send({ type: 'session.delete', sessionId: 'nope' });
    expect(actor.getSnapshot().matches({ action: 'idle' })).toBe(true);
  });

  it('deletes one only after the confirmation; cancel leaves it', async () => {
    const { actor, adapter, toasts } = start();
    await loaded(actor);
    actor.send({ type: 'session.delete', sessionId: 'a1' });
    expect(actor.getSnapshot().matches({ action: { deleting: 'confirming' } })).toBe(true);
    expect(actor.getSnapshot().context.target?.title).toBe('Archived chat 1');
    actor.send({ type: 'action.cancel' });
    expect(actor.getSnapshot().matches({ action: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.target).toBeNull();
    actor.send({ type: 'session.delete', sessionId: 'a1' });
    actor.send({ type: 'action.confirm' });
    expect(actor.getSnapshot().matches({ action: { deleting: 'running' } })).toBe(true);
    await waitFor(actor, (s) => s.context.sessions.length === 2);
    expect(adapter.calls.filter((c) => c.method === 'deleteArchivedSession')).toHaveLength(1);
    expect(toasts()).toEqual(['success: Chat deleted successfully']);
  });

  it.each([
    [
      'all.archive',
      'archivingAll',
      'archiveAll',
      'All chats archived successfully',
      'Failed to archive all chats',
    ],
    [
      'all.delete',
      'deletingAll',
      'deleteAll',
      'All chats deleted successfully',
      'Failed to delete all chats',
    ],
    [
      'session.delete',
      'deleting',
      'deleteArchivedSession',
      'Chat deleted successfully',
      'Failed to delete chat',
    ],
  ] as const)(
    '%s: confirming → running → idle; success and failure toasts',
    async (event, state, method, ok, fail) => {
      const send = (actor: ReturnType<typeof start>['actor']) =>
        actor.send(event === 'session.delete' ? { type: event, sessionId: 'a1' } : { type: event });
      const answer = deferred<MessageResponse>();
      const good = start(fakeSettingsAdapter({ [method]: () => answer.promise }));
      await loaded(good.actor);
      send(good.actor);
      expect(good.actor.getSnapshot().matches({ action: { [state]: 'confirming' } } as never)).toBe(
        true,
      );
      expect(good.adapter.calls.some((c) => c.method === method)).toBe(false);
      good.actor.send({ type: 'action.confirm' });
      expect(good.actor.getSnapshot().hasTag('busy')).toBe(true);
      answer.resolve({ message: 'ok' });
      await waitFor(good.actor, (s) => s.matches({ action: 'idle' }));
      expect(good.toasts()).toEqual([`success: ${ok}`]);
      expect(good.changes()).toBe(1);

      const bad = start(fakeSettingsAdapter({ [method]: () => Promise.reject(apiError(500)) }));
      await loaded(bad.actor);
      send(bad.actor);
      bad.actor.send({ type: 'action.confirm' });
      await waitFor(bad.actor, (s) => s.matches({ action: 'idle' }));
      expect(bad.toasts()).toEqual([`error: ${fail}`]);
      expect(bad.changes()).toBe(0);
    },
  );

  it('delete all empties the archive and reloads it', async () => {
    const { actor } = start();
    await loaded(actor);
    actor.send({ type: 'all.delete' });
    actor.send({ type: 'action.confirm' });
    await waitFor(actor, (s) => s.matches({ list: 'loaded' }) && s.context.sessions.length === 0);
  });
});
