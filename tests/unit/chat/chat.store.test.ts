import { describe, expect, it } from 'vitest';

import { browserChatStore, keyValueChatStore, memoryChatStore } from '../../../src/chat/chat.store';

const chat = {
  currentSessionId: 's1',
  currentThreadId: 't1',
  messageCount: 4,
  timestamp: 1700000000000,
};

function storage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('chat store', () => {
  it('keeps the last conversation per user id', () => {
    const store = memoryChatStore();
    store.save('u1', chat);
    expect(store.load('u1')).toEqual(chat);
    expect(store.load('u2')).toBeNull();
    store.clear('u1');
    expect(store.load('u1')).toBeNull();
  });

  it('writes JSON under a key per user in local storage and refreshes in session storage', () => {
    const local = storage();
    const session = storage();
    const store = keyValueChatStore(local, session);
    store.save('u1', chat);
    expect(JSON.parse(local.items.get('ayah:chat:u1')!)).toEqual(chat);
    expect(store.wasHistoryRefreshed('s1')).toBe(false);
    store.markHistoryRefreshed('s1');
    expect(store.wasHistoryRefreshed('s1')).toBe(true);
    expect(session.items.size).toBe(1);
    expect(local.items.size).toBe(1);
  });

  it('ignores malformed stored values', () => {
    const local = storage();
    const store = keyValueChatStore(local, storage());
    local.items.set('ayah:chat:u1', '{not json');
    expect(store.load('u1')).toBeNull();
    local.items.set('ayah:chat:u1', JSON.stringify({ currentSessionId: 5 }));
    expect(store.load('u1')).toBeNull();
  });

  it('survives storage that throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const store = keyValueChatStore(broken, broken);
    expect(() => store.save('u1', chat)).not.toThrow();
    expect(store.load('u1')).toBeNull();
    expect(store.wasHistoryRefreshed('s1')).toBe(false);
  });

  it('falls back to memory where there is no browser storage', () => {
    const store = browserChatStore();
    store.save('u1', chat);
    expect(store.load('u1')).toEqual(chat);
  });
});
