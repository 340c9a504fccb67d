/**
 * The one-time value a browser keeps while a redirect sign-in (Google) is under way: made when the
 * sign-in starts, kept in sessionStorage, sent to the server at `/google/login`, and read (and
 * forgotten) by the callback page, which presents it with the one-time code. A code in a link someone
 * else sent was bound to their browser's value, never this one's, so it cannot sign this browser in.
 */
const KEY = 'ayah.signInState';

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** A fresh value (256 random bits, base64url), kept for the callback page. */
export function beginRedirectSignIn(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  const value = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  storage()?.setItem(KEY, value);
  return value;
}

/** The value this browser kept, forgotten as it is read (null when it started no sign-in). */
export function takeRedirectSignInState(): string | null {
  const store = storage();
  const value = store?.getItem(KEY) ?? null;
  store?.removeItem(KEY);
  return value;
}
