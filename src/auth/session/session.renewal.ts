import type { TokenResponse } from '../auth.adapter';

/**
 * One renewal at a time across the tabs of this origin (issue 22 #4). The refresh token rotates and
 * is single use: two tabs that renew at once would both present it, the server would take the second
 * for a stolen token's reuse and revoke the session, signing the student out in both tabs. So a tab
 * takes the Web Lock `ayah-token-renewal` and, holding it, re-reads the shared storage: when another
 * tab renewed meanwhile (the stored refresh token is no longer the one this tab holds), it adopts
 * that tab's tokens instead of presenting a used one. Without Web Locks (an old browser, a test
 * runtime) it still re-reads storage first, which catches every renewal that already finished.
 *
 * localStorage alone is not enough: Chromium gives each tab's process its own copy and sends other
 * tabs' writes to it later, so the tab that gets the lock next may still read the old pair (seen
 * in 2 of 4 e2e runs). The renewing tab therefore also records "this refresh token was renewed to
 * that pair" in IndexedDB, whose transactions every tab sees in order, before letting go of the lock.
 */

/** The lock's name, shared by every tab of the origin. */
export const RENEWAL_LOCK = 'ayah-token-renewal';

/** The tokens as the shared storage holds them. */
export type StoredTokens = {
  read(): { token: string | null; refreshToken: string | null };
  write(token: string, refreshToken: string | null): void;
};

/** Which pair a refresh token was renewed to, as every tab can read it. */
export type RenewalJournal = {
  find(presented: string): Promise<TokenResponse | null>;
  record(presented: string, answer: TokenResponse): Promise<void>;
  /** Drops the record (sign-out): no token pair outlives the session in this origin's storage. */
  forget(): Promise<void>;
};

/** The part of `navigator.locks` used here. */
export type RenewalLocks = {
  request<T>(
    name: string,
    options: { signal?: AbortSignal },
    callback: () => Promise<T>,
  ): Promise<T>;
};

/** `navigator.locks` where the page has it, else null. */
export function webLocks(): RenewalLocks | null {
  try {
    const locks = (globalThis.navigator as { locks?: RenewalLocks } | undefined)?.locks;
    return locks && typeof locks.request === 'function' ? locks : null;
  } catch {
    return null;
  }
}

/**
 * Renews the session whose refresh token is `presented`, or adopts the renewal another tab made of
 * it. The answer is written to `stored` before the lock is let go, so the next tab reads it.
 */
export function renewShared(options: {
  presented: string;
  stored: StoredTokens;
  refresh: (refreshToken: string, signal: AbortSignal) => Promise<TokenResponse>;
  signal: AbortSignal;
  locks?: RenewalLocks | null;
  journal?: RenewalJournal | null;
}): Promise<TokenResponse> {
  const { presented, stored, refresh, signal, locks = webLocks() } = options;
  const journal =
    options.journal === undefined ? (pageJournal ??= indexedDbJournal()) : options.journal;
  const renew = async (): Promise<TokenResponse> => {
    const renewed = await journal?.find(presented).catch(() => null);
    if (renewed) {
      stored.write(renewed.access_token, renewed.refresh_token ?? null);
      return renewed;
    }
    const current = stored.read();
    if (current.token && current.refreshToken && current.refreshToken !== presented) {
      return {
        access_token: current.token,
        token_type: 'bearer',
        refresh_token: current.refreshToken,
      };
    }
    const answer = await refresh(presented, signal);
    // Abandoned (signed out meanwhile): a late answer must not bring the tokens back.
    signal.throwIfAborted();
    stored.write(answer.access_token, answer.refresh_token ?? presented);
    await journal?.record(presented, answer).catch(() => {});
    return answer;
  };
  return locks ? locks.request(RENEWAL_LOCK, { signal }, renew) : renew();
}

let pageJournal: RenewalJournal | null = null;

const DB_NAME = 'ayah-session';
const STORE = 'renewals';
/** One record: the latest renewal (an older refresh token than its own is refused anyway). */
const LAST = 'last';

/** The journal in this origin's IndexedDB, or null where there is none. */
export function indexedDbJournal(): RenewalJournal | null {
  const idb = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!idb) return null;
  let db: Promise<IDBDatabase> | null = null;
  const open = () =>
    (db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = idb.open(DB_NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB unavailable'));
    }));
  const run = <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>) =>
    open().then(
      (database) =>
        new Promise<T>((resolve, reject) => {
          const transaction = database.transaction(STORE, mode);
          const request = work(transaction.objectStore(STORE));
          // Resolved once committed, so the next tab to take the lock reads it.
          transaction.oncomplete = () => resolve(request.result);
          transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB failed'));
          transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB aborted'));
        }),
    );
  return {
    find: async (presented) => {
      const last = (await run('readonly', (store) => store.get(LAST))) as
        { presented: string; answer: TokenResponse } | undefined;
      return last?.presented === presented ? last.answer : null;
    },
    record: async (presented, answer) => {
      await run('readwrite', (store) => store.put({ presented, answer }, LAST));
    },
    forget: async () => {
      await run('readwrite', (store) => store.delete(LAST));
    },
  };
}

/** Forgets the last renewal this origin recorded (the session's tokens are being cleared). */
export function forgetRenewals(): Promise<void> {
  return (pageJournal ??= indexedDbJournal())?.forget().catch(() => {}) ?? Promise.resolve();
}
