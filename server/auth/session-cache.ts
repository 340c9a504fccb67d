/**
 * The sessions this server has recently found live, with their users, so that a signed-in request
 * asks nothing of the database while its session stays as it was (bench:server's `/auth/me`).
 *
 * It never outlives a change, wherever it was made. Every update or deletion of a user or a session
 * is announced by the database itself (triggers, migration 0008) on `ayah_auth_changes`, and an entry
 * goes as soon as this server hears of it:
 * - on this server, before the answer to the request that made it: PGlite hands a notification over
 *   while the commit is read, and on PostgreSQL every write's answer first waits for the listening
 *   connection to catch up (`Database.notifications.caughtUp`, app.ts);
 * - on another server of a district, when its listening connection hears it: the commit's own
 *   delivery, milliseconds.
 * While the listening connection is down or in doubt, the cache is empty and unused (every request
 * reads the database, as if there were no cache), and it starts empty again once listening resumes.
 *
 * A lookup that read the database while a change was announced may hold data from before it: each
 * fill carries the announcement count read before its query, and is dropped if any came since. An
 * entry also lives at most `ttlMs`, so even a notification lost without the connection noticing
 * cannot keep a session alive for long.
 */
import type { User } from '../db/schema';

export const AUTH_CHANGES_CHANNEL = 'ayah_auth_changes';

interface Entry {
  user: User;
  expiresAt: Date;
  storedAt: number;
}

export interface SessionCacheOptions {
  now: () => Date;
  maxEntries?: number;
  ttlMs?: number;
}

export type SessionCache = ReturnType<typeof createSessionCache>;

export function createSessionCache({
  now,
  maxEntries = 10_000,
  ttlMs = 60_000,
}: SessionCacheOptions) {
  const entries = new Map<string, Entry>();
  const sessionsOf = new Map<string, Set<string>>();
  let live = false;
  let announcements = 0;

  function forget(sessionId: string) {
    const entry = entries.get(sessionId);
    if (!entry) return;
    entries.delete(sessionId);
    const sessions = sessionsOf.get(entry.user.id);
    sessions?.delete(sessionId);
    if (sessions?.size === 0) sessionsOf.delete(entry.user.id);
  }

  function clear() {
    entries.clear();
    sessionsOf.clear();
  }

  return {
    /** The listener to give `Database.notifications.listen(AUTH_CHANGES_CHANNEL, …)`. */
    listener: {
      notify(payload: string) {
        announcements++;
        const id = payload.slice(2);
        if (payload.startsWith('s:')) forget(id);
        else if (payload.startsWith('u:')) for (const sid of sessionsOf.get(id) ?? []) forget(sid);
        else clear();
      },
      live(isLive: boolean) {
        announcements++;
        live = isLive;
        clear();
      },
    },

    /**
     * The user of session `sessionId` if it was found live (not revoked, not expired, `userId`'s
     * token version `tokenVersion`) and nothing about it has changed since.
     */
    get(sessionId: string, userId: string, tokenVersion: number): User | undefined {
      const entry = entries.get(sessionId);
      if (!entry) return undefined;
      const at = now();
      if (
        entry.user.id !== userId ||
        entry.user.tokenVersion !== tokenVersion ||
        entry.expiresAt <= at ||
        at.getTime() - entry.storedAt >= ttlMs
      ) {
        forget(sessionId);
        return undefined;
      }
      return entry.user;
    },

    /** Taken before reading a session from the database, and handed to `put` with what was read. */
    ticket(): number {
      return announcements;
    },

    /** Keeps a live session read from the database, unless a change was announced since `ticket`. */
    put(ticket: number, sessionId: string, user: User, expiresAt: Date) {
      if (!live || ticket !== announcements) return;
      forget(sessionId);
      if (entries.size >= maxEntries) forget(entries.keys().next().value!);
      // Shared by every request of the session from now on: nobody may change it in place.
      Object.freeze(user.interests);
      entries.set(sessionId, { user: Object.freeze(user), expiresAt, storedAt: now().getTime() });
      let sessions = sessionsOf.get(user.id);
      if (!sessions) sessionsOf.set(user.id, (sessions = new Set()));
      sessions.add(sessionId);
    },

    get size() {
      return entries.size;
    },
  };
}
