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

/**
 * The two screens the build prerenders into index.html (scripts/prerender.mjs): the sign-in screen,
 * for a visitor of /auth who holds no session, and the signed-in shell (sidebar, header, empty chat,
 * composer), for one of /assistant who does. Each is the app's own first render of that visit, so React
 * hydrates it as it is.
 */
export type Prerendered = 'in' | 'out';

/** Path → [the prerendered screen signed out, signed in]: no other visit has one. */
export const PRERENDERED: Record<string, [Prerendered | null, Prerendered | null]> = {
  '/auth': ['out', null],
  '/assistant': [null, 'in'],
};

/**
 * The sign-in screen's tagline shows whole, not typed, when the reader prefers reduced motion or it
 * was typed once in this tab (src/auth/Tagline.tsx and its session-storage key): the prerendered
 * screen, typed, would then not be the app's first render, so such a visit is not given it.
 */
export const TAGLINE_SHOWN_WHOLE =
  "sessionStorage.getItem('ayah:tagline-typed')==='1'||" +
  "matchMedia('(prefers-reduced-motion: reduce)').matches";

/**
 * The attribute of `<html>` by which the first-load script shows one prerendered screen (app.css),
 * set once the HTML is parsed: never a part of the screen, which would move as the rest came.
 */
export const SCREEN_ATTRIBUTE = 'data-screen';

/**
 * The prerendered screen the first-load script chose and the page shows, made the app's root (the
 * empty one and the other screen go); null when this visit has none.
 */
export function takePrerendered(root: HTMLElement): HTMLElement | null {
  const html = document.documentElement;
  const screen = html.getAttribute(SCREEN_ATTRIBUTE);
  let chosen: HTMLElement | null = null;
  for (const node of document.querySelectorAll<HTMLElement>('[data-prerendered]')) {
    if (screen && node.dataset.prerendered === screen) chosen = node;
    else node.remove();
  }
  if (chosen) {
    root.remove();
    chosen.removeAttribute('data-prerendered');
    chosen.id = 'root';
  }
  html.removeAttribute(SCREEN_ATTRIBUTE);
  return chosen;
}
