import type { TokenResponse } from './auth.adapter';

/**
 * One renewal at a time across the tabs of this origin (issue 22 #4). The refresh token rotates and
 * is single use: two tabs that renew at once would both present it, the server would take the second
 * for a stolen token's reuse and revoke the session, signing the student out in both tabs. So a tab
 * takes the Web Lock `ayah-token-renewal` and, holding it, re-reads the shared storage: when another
 * tab renewed meanwhile (the stored refresh token is no longer the one this tab holds), it adopts
 * that tab's tokens instead of presenting a used one. Without Web Locks (an old browser, a test
 * runtime) it still re-reads storage first, which catches every renewal that already finished.
 */

/** The lock's name, shared by every tab of the origin. */
export const RENEWAL_LOCK = 'ayah-token-renewal';

/** The tokens as the shared storage holds them. */
export type StoredTokens = {
  read(): { token: string | null; refreshToken: string | null };
  write(token: string, refreshToken: string | null): void;
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
}): Promise<TokenResponse> {
  const { presented, stored, refresh, signal, locks = webLocks() } = options;
  const renew = async (): Promise<TokenResponse> => {
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
    return answer;
  };
  return locks ? locks.request(RENEWAL_LOCK, { signal }, renew) : renew();
}
