/**
 * The session cache on its own: what it answers, what it forgets on each announcement, and the fill
 * that raced an announcement. Over HTTP, on both databases: tests/server/auth/hot-path.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { createSessionCache } from '../../../server/auth/session-cache';
import type { User } from '../../../server/db/schema';

function user(id: string, tokenVersion = 0): User {
  return { id, tokenVersion, interests: ['math'], displayName: id } as unknown as User;
}

function setUp(options: { maxEntries?: number; ttlMs?: number } = {}) {
  let clock = Date.parse('2026-11-24T10:00:00Z');
  const cache = createSessionCache({ now: () => new Date(clock), ...options });
  cache.listener.live(true);
  const later = new Date(clock + 3_600_000);
  const fill = (sid: string, who: User, expiresAt = later) =>
    cache.put(cache.ticket(), sid, who, expiresAt);
  return { cache, fill, later, tick: (ms: number) => (clock += ms) };
}

describe('the session cache', () => {
  it('answers a kept session only for its user and token version, and until it expires', () => {
    const { cache, fill, tick } = setUp();
    fill('s1', user('u1', 2), new Date(Date.parse('2026-11-24T10:00:30Z')));
    expect(cache.get('s1', 'u1', 2)?.id).toBe('u1');
    expect(cache.get('s1', 'u2', 2)).toBeUndefined();
    fill('s1', user('u1', 2), new Date(Date.parse('2026-11-24T10:00:30Z')));
    expect(cache.get('s1', 'u1', 3)).toBeUndefined();
    fill('s1', user('u1', 2), new Date(Date.parse('2026-11-24T10:00:30Z')));
    tick(30_000);
    expect(cache.get('s1', 'u1', 2)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps an entry at most its lifetime, whatever the session’s own end', () => {
    const { cache, fill, tick } = setUp({ ttlMs: 1_000 });
    fill('s1', user('u1'));
    tick(999);
    expect(cache.get('s1', 'u1', 0)).toBeDefined();
    tick(1);
    expect(cache.get('s1', 'u1', 0)).toBeUndefined();
  });

  it('forgets a session, every session of a user, or everything, as announced', () => {
    const { cache, fill } = setUp();
    fill('a1', user('a'));
    fill('a2', user('a'));
    fill('b1', user('b'));
    cache.listener.notify('s:a1');
    expect(cache.get('a1', 'a', 0)).toBeUndefined();
    expect(cache.get('a2', 'a', 0)).toBeDefined();
    fill('a1', user('a'));
    cache.listener.notify('u:a');
    expect(cache.get('a1', 'a', 0)).toBeUndefined();
    expect(cache.get('a2', 'a', 0)).toBeUndefined();
    expect(cache.get('b1', 'b', 0)).toBeDefined();
    cache.listener.notify('*');
    expect(cache.size).toBe(0);
  });

  it('drops a fill whose read may predate an announcement', () => {
    const { cache, later } = setUp();
    const ticket = cache.ticket();
    // The database is read here; meanwhile some other session changes.
    cache.listener.notify('s:someone-else');
    cache.put(ticket, 's1', user('u1'), later);
    expect(cache.get('s1', 'u1', 0)).toBeUndefined();
    cache.put(cache.ticket(), 's1', user('u1'), later);
    expect(cache.get('s1', 'u1', 0)).toBeDefined();
  });

  it('keeps nothing while it cannot hear announcements, and starts empty when it can again', () => {
    const { cache, fill } = setUp();
    fill('s1', user('u1'));
    cache.listener.live(false);
    expect(cache.size).toBe(0);
    fill('s1', user('u1'));
    expect(cache.get('s1', 'u1', 0)).toBeUndefined();
    cache.listener.live(true);
    fill('s1', user('u1'));
    expect(cache.get('s1', 'u1', 0)).toBeDefined();
  });

  it('holds at most its bound, the oldest going first', () => {
    const { cache, fill } = setUp({ maxEntries: 3 });
    for (const sid of ['s1', 's2', 's3', 's4']) fill(sid, user(`u-${sid}`));
    expect(cache.size).toBe(3);
    expect(cache.get('s1', 'u-s1', 0)).toBeUndefined();
    expect(cache.get('s4', 'u-s4', 0)).toBeDefined();
    // The user index follows: announcing the evicted user's change touches nobody else.
    cache.listener.notify('u:u-s1');
    expect(cache.size).toBe(3);
  });

  it('hands every request of a session the same user, frozen', () => {
    const { cache, fill } = setUp();
    fill('s1', user('u1'));
    const kept = cache.get('s1', 'u1', 0)!;
    expect(Object.isFrozen(kept)).toBe(true);
    expect(() => (kept.interests as string[]).push('history')).toThrow(TypeError);
  });
});
