import { describe, expect, it, vi } from 'vitest';
import { type AnyActorLogic, createActor, toPromise, waitFor } from 'xstate';

import { apiError, deferred, fakeChatAdapter, page, sampleSessions } from '../../../fakes/chat';
import type { ChatAdapter, ChatSession, ChatSessionPage } from '../../../src/api';
import { sessionsLogic, sessionsMachine } from '../../../src/chat/sessions.machine';
import { isValidTitle } from '../../../src/chat/sessions.setup';
import { CHAT_MESSAGES } from '../../../src/lib/messages';
import { startRecording } from '../../support/recording';

function start(overrides: Partial<ChatAdapter> = {}) {
  return startRecording(sessionsLogic(fakeChatAdapter(overrides)));
}

type Actor = ReturnType<typeof start>['actor'];
const loaded = (actor: Actor) => waitFor(actor, (s) => s.matches({ list: 'loaded' }));
const idle = (actor: Actor) => waitFor(actor, (s) => s.matches({ action: 'idle' }));
const titles = (actor: Actor) => actor.getSnapshot().context.sessions.map((s) => s.title);

describe('sessions machine: the list', () => {
  it('fails loudly without its actors', async () => {
    const stub = sessionsMachine.implementations.actors.listSessions as AnyActorLogic;
    await expect(toPromise(createActor(stub).start())).rejects.toThrow(
      'listSessions must be provided',
    );
  });

  it('loads the sessions', async () => {
    const call = deferred<ChatSessionPage>();
    const { actor } = start({ listSessions: () => call.promise });
    expect(actor.getSnapshot().value).toEqual({ list: 'loading', action: 'idle' });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    call.resolve(page(sampleSessions));
    await loaded(actor);
    expect(titles(actor)).toEqual(sampleSessions.map((s) => s.title));
  });

  it('shows a failed list as empty', async () => {
    const { actor } = start({ listSessions: () => Promise.reject(apiError()) });
    await loaded(actor);
    expect(actor.getSnapshot().context.sessions).toEqual([]);
  });

  it('reloads on sessions.refresh, keeping the list shown meanwhile', async () => {
    const listSessions = vi.fn(async () => page(sampleSessions.slice(0, 1)));
    const { actor } = start({ listSessions });
    await loaded(actor);
    const next = deferred<ChatSessionPage>();
    listSessions.mockReturnValueOnce(next.promise);
    actor.send({ type: 'sessions.refresh' });
    expect(actor.getSnapshot().matches({ list: 'loading' })).toBe(true);
    expect(titles(actor)).toEqual([sampleSessions[0]!.title]);
    next.resolve(page(sampleSessions));
    await loaded(actor);
    expect(titles(actor)).toHaveLength(sampleSessions.length);
  });

  it('restarts a load in flight on sessions.refresh', async () => {
    const signals: AbortSignal[] = [];
    const listSessions = vi.fn((_q?: unknown, options?: { signal?: AbortSignal }) => {
      signals.push(options!.signal!);
      return new Promise<ChatSessionPage>(() => {});
    });
    const { actor } = start({ listSessions });
    actor.send({ type: 'sessions.refresh' });
    expect(listSessions).toHaveBeenCalledTimes(2);
    expect(signals[0]?.aborted).toBe(true);
  });
});

describe('sessions machine: rename', () => {
  it('opens the rename dialog, saves the trimmed title and toasts the success', async () => {
    const rename = deferred<ChatSession>();
    const renameSession = vi.fn(() => rename.promise);
    const { actor, emitted } = start({ renameSession });
    await loaded(actor);
    actor.send({ type: 'session.rename', sessionId: 's1' });
    expect(actor.getSnapshot().value).toEqual({ list: 'loaded', action: { renaming: 'editing' } });
    expect(actor.getSnapshot().context.target?.id).toBe('s1');

    actor.send({ type: 'rename.save', title: '  Fractions, part 2 ' });
    expect(actor.getSnapshot().matches({ action: { renaming: 'saving' } })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(renameSession).toHaveBeenCalledWith(
      's1',
      { title: 'Fractions, part 2' },
      expect.anything(),
    );
    rename.resolve({ ...sampleSessions[0]!, title: 'Fractions, part 2' });
    await idle(actor);
    expect(titles(actor)[0]).toBe('Fractions, part 2');
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'success',
      message: 'Chat renamed successfully',
    });
  });

  it("keeps the dialog open with 'Change name failed!' when the rename fails", async () => {
    const { actor, emitted } = start({ renameSession: () => Promise.reject(apiError()) });
    await loaded(actor);
    actor.send({ type: 'session.rename', sessionId: 's1' });
    actor.send({ type: 'rename.save', title: 'New name' });
    await waitFor(actor, (s) => s.matches({ action: { renaming: 'editing' } }));
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'error',
      message: 'Change name failed!',
    });
    expect(titles(actor)[0]).toBe(sampleSessions[0]!.title);
  });

  it('refuses a blank or too long title and closes on an unchanged one', async () => {
    const renameSession = vi.fn();
    const { actor } = start({ renameSession });
    await loaded(actor);
    actor.send({ type: 'session.rename', sessionId: 's1' });
    expect(actor.getSnapshot().can({ type: 'rename.save', title: '   ' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'rename.save', title: 'x'.repeat(101) })).toBe(false);
    actor.send({ type: 'rename.save', title: sampleSessions[0]!.title });
    expect(actor.getSnapshot().matches({ action: 'idle' })).toBe(true);
    expect(renameSession).not.toHaveBeenCalled();
  });

  it('rename.cancel closes the dialog', async () => {
    const { actor } = start();
    await loaded(actor);
    actor.send({ type: 'session.rename', sessionId: 's1' });
    actor.send({ type: 'rename.cancel' });
    expect(actor.getSnapshot().matches({ action: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.target).toBeNull();
  });

  it('ignores an unknown session', async () => {
    const { actor } = start();
    await loaded(actor);
    actor.send({ type: 'session.rename', sessionId: 'nope' });
    expect(actor.getSnapshot().matches({ action: 'idle' })).toBe(true);
  });

  it('isValidTitle: 1–100 characters after trimming', () => {
    expect(isValidTitle(' a ')).toBe(true);
    expect(isValidTitle('x'.repeat(100))).toBe(true);
    expect(isValidTitle('x'.repeat(101))).toBe(false);
    expect(isValidTitle('  ')).toBe(false);
  });
});

describe('sessions machine: archive', () => {
  it('archives, removes the chat from the list and says so', async () => {
    const { actor, emitted } = start();
    await loaded(actor);
    actor.send({ type: 'session.archive', sessionId: 's2' });
    expect(actor.getSnapshot().matches({ action: 'archiving' })).toBe(true);
    await idle(actor);
    expect(titles(actor)).not.toContain(sampleSessions[1]!.title);
    expect(emitted).toContainEqual({ type: 'session.removed', sessionId: 's2' });
    // The toast may undo it (issue 25 item 6).
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'success',
      message: CHAT_MESSAGES.archived,
      undo: 's2',
    });
    actor.send({ type: 'session.unarchive', sessionId: 's2' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await idle(actor);
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'success',
      message: CHAT_MESSAGES.unarchived,
    });
    await waitFor(actor, (s) => s.context.sessions.some((c) => c.id === 's2'));
  });

  it('keeps the chat and reports a failed archive', async () => {
    const { actor, emitted } = start({ archiveSession: () => Promise.reject(apiError()) });
    await loaded(actor);
    actor.send({ type: 'session.archive', sessionId: 's2' });
    await idle(actor);
    expect(titles(actor)).toContain(sampleSessions[1]!.title);
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'error',
      message: CHAT_MESSAGES.archiveFailed,
    });
  });
});

describe('sessions machine: delete', () => {
  it('asks for confirmation, deletes, and says so', async () => {
    const deleteSession = vi.fn(async () => ({ message: 'ok' }));
    const { actor, emitted } = start({ deleteSession });
    await loaded(actor);
    actor.send({ type: 'session.delete', sessionId: 's3' });
    expect(actor.getSnapshot().matches({ action: { deleting: 'confirming' } })).toBe(true);
    expect(deleteSession).not.toHaveBeenCalled();
    actor.send({ type: 'delete.confirm' });
    expect(actor.getSnapshot().matches({ action: { deleting: 'removing' } })).toBe(true);
    await idle(actor);
    expect(deleteSession).toHaveBeenCalledWith('s3', expect.anything());
    expect(titles(actor)).not.toContain(sampleSessions[2]!.title);
    expect(emitted).toContainEqual({ type: 'session.removed', sessionId: 's3' });
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'success',
      message: 'Chat deleted successfully',
    });
  });

  it('delete.cancel keeps the chat', async () => {
    const deleteSession = vi.fn();
    const { actor } = start({ deleteSession });
    await loaded(actor);
    actor.send({ type: 'session.delete', sessionId: 's3' });
    actor.send({ type: 'delete.cancel' });
    expect(actor.getSnapshot().matches({ action: 'idle' })).toBe(true);
    expect(deleteSession).not.toHaveBeenCalled();
  });

  it("reports 'Failed to delete chat'", async () => {
    const { actor, emitted } = start({ deleteSession: () => Promise.reject(apiError()) });
    await loaded(actor);
    actor.send({ type: 'session.delete', sessionId: 's3' });
    actor.send({ type: 'delete.confirm' });
    await idle(actor);
    expect(titles(actor)).toContain(sampleSessions[2]!.title);
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'error',
      message: 'Failed to delete chat',
    });
  });
});
