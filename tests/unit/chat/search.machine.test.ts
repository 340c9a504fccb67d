import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorLogic, createActor, toPromise } from 'xstate';

import {
  apiError,
  deferred,
  fakeChatAdapter,
  page,
  sampleSessions,
  session,
} from '../../../fakes/chat';
import type { ChatAdapter, ChatSearchPage } from '../../../src/api';
import { searchLogic, searchMachine } from '../../../src/chat/search.machine';
import { CHAT } from '../../../src/lib/limits';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

async function microtasks() {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

function start(overrides: Partial<ChatAdapter> = {}) {
  const search = vi.fn(overrides.search ?? fakeChatAdapter().search);
  const listSessions = vi.fn(overrides.listSessions ?? fakeChatAdapter().listSessions);
  const actor = createActor(
    searchLogic(fakeChatAdapter({ ...overrides, search, listSessions })),
  ).start();
  return { actor, search, listSessions };
}

describe('search machine', () => {
  it('fails loudly without its actors', async () => {
    vi.useRealTimers();
    const stub = searchMachine.implementations.actors.search as AnyActorLogic;
    await expect(toPromise(createActor(stub, { input: { search: 'x' } }).start())).rejects.toThrow(
      'search must be provided',
    );
  });

  it('shows up to 10 recent chats while the query is blank', async () => {
    const many = Array.from({ length: 15 }, (_, i) => session(`s${i}`, `Chat ${i}`));
    const { actor, listSessions } = start({
      listSessions: async ({ limit } = {}) => page(many.slice(0, limit ?? many.length)),
    });
    expect(actor.getSnapshot().value).toBe('idle');
    await microtasks();
    expect(listSessions).toHaveBeenCalledWith({ limit: 10, page: 1 }, expect.anything());
    expect(actor.getSnapshot().context.recent).toHaveLength(CHAT.recentChatsInSearch);
  });

  it('keeps the recent list empty when it fails to load', async () => {
    const { actor } = start({ listSessions: () => Promise.reject(apiError()) });
    await microtasks();
    expect(actor.getSnapshot().context.recent).toEqual([]);
    expect(actor.getSnapshot().status).toBe('active');
  });

  it('waits 300 ms after the last key, then searches with limit 20, page 1', async () => {
    const { actor, search } = start();
    actor.send({ type: 'search.change', query: 'f' });
    expect(actor.getSnapshot().value).toBe('debouncing');
    expect(actor.getSnapshot().hasTag('typing')).toBe(true);
    vi.advanceTimersByTime(200);
    actor.send({ type: 'search.change', query: ' fr ' });
    vi.advanceTimersByTime(CHAT.searchDebounceMs - 1);
    expect(search).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('searching');
    expect(search).toHaveBeenCalledTimes(1);
    expect(search).toHaveBeenCalledWith(
      { search: 'fr', limit: 20, page: 1 },
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    await microtasks();
    expect(actor.getSnapshot().value).toBe('results');
    expect(actor.getSnapshot().context.results.map((s) => s.id)).toEqual(['s1', 's3']);
  });

  it('shows no results', async () => {
    const { actor } = start();
    actor.send({ type: 'search.change', query: 'zebra' });
    vi.advanceTimersByTime(CHAT.searchDebounceMs);
    await microtasks();
    expect(actor.getSnapshot().value).toBe('noResults');
    expect(actor.getSnapshot().context.results).toEqual([]);
  });

  it('treats a failed search as no results', async () => {
    const { actor } = start({ search: () => Promise.reject(apiError()) });
    actor.send({ type: 'search.change', query: 'fr' });
    vi.advanceTimersByTime(CHAT.searchDebounceMs);
    await microtasks();
    expect(actor.getSnapshot().value).toBe('noResults');
  });

  it('a blank query clears the results and shows the recent chats', async () => {
    const { actor, search } = start();
    actor.send({ type: 'search.change', query: 'fr' });
    vi.advanceTimersByTime(CHAT.searchDebounceMs);
    await microtasks();
    expect(actor.getSnapshot().context.results).not.toEqual([]);
    actor.send({ type: 'search.change', query: '   ' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.results).toEqual([]);
    vi.advanceTimersByTime(CHAT.searchDebounceMs * 2);
    expect(search).toHaveBeenCalledTimes(1);
  });

  it('search.clear empties the query', async () => {
    const { actor } = start();
    actor.send({ type: 'search.change', query: 'fr' });
    actor.send({ type: 'search.clear' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.query).toBe('');
  });

  it('typing again abandons a search in flight', async () => {
    const first = deferred<ChatSearchPage>();
    const signals: AbortSignal[] = [];
    const { actor, search } = start({
      search: (_q, options) => {
        signals.push(options!.signal!);
        return signals.length === 1
          ? first.promise
          : Promise.resolve(page(sampleSessions.map((s) => ({ ...s, archived: false }))));
      },
    });
    actor.send({ type: 'search.change', query: 'fr' });
    vi.advanceTimersByTime(CHAT.searchDebounceMs);
    actor.send({ type: 'search.change', query: 'fra' });
    expect(signals[0]?.aborted).toBe(true);
    first.resolve(page([]));
    vi.advanceTimersByTime(CHAT.searchDebounceMs);
    await microtasks();
    expect(search).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().value).toBe('results');
  });
});
