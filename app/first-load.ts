/**
 * Which page a first load of a path shows, known before the app runs: the build preloads that page's
 * chunk from the HTML (app/route-preload.ts) and the router starts loading it as the entry runs, so
 * neither waits for React's first render nor, signed in, for the session's /me.
 *
 * `signedIn` is a guess from stored state (the access token); a wrong guess costs a fetch, never a page.
 */
export type FirstPage = 'AuthPage' | 'AssistantPage';

/** The routes worth a head start: sign-in and the chat (spec section 2). */
export const FIRST_LOAD_PATHS = ['/', '/auth', '/login', '/register', '/assistant'];

/** The page a signed-out or signed-in visitor of `pathname` first sees, when it is one worth preloading. */
export function firstPage(pathname: string, signedIn: boolean): FirstPage | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (!FIRST_LOAD_PATHS.includes(path)) return null;
  // Signed out, a protected route redirects to /auth; signed in, /auth goes on to the chat.
  return signedIn ? 'AssistantPage' : 'AuthPage';
}

/** The access token the auth session stores, if this browser holds one. */
export function storedToken(): string | null {
  try {
    return globalThis.localStorage?.getItem('authToken') ?? null;
  } catch {
    return null;
  }
}

/** Whether this browser holds a session. */
export function hasStoredSession(): boolean {
  return Boolean(storedToken());
}

/** The session's first request, which the HTML's first-load script sends ahead (route-preload.ts). */
export const ME_PATH = '/api/v1/auth/me';

/** The global the first-load script leaves its GET /me in: a fetch promise, for `takeSentMe`. */
export const SENT_ME = '__ayahSentMe';

/** The GET /me the first-load script sent with the stored token, if it did; taken once. */
export function takeSentMe(): Promise<Response> | null {
  const holder = globalThis as { [SENT_ME]?: Promise<Response> };
  const sent = holder[SENT_ME] ?? null;
  delete holder[SENT_ME];
  return sent;
}
