import type { Api } from 'ayah-coach';

import { hasStoredSession, ME_PATH, takeSentMe } from './first-load';

type AuthAdapter = Api['auth'];

/**
 * The auth adapter, with the session's first GET /me already asked as the app's entry runs, when the
 * browser holds a token: a signed-in first load then waits for the user in parallel with React's first
 * render instead of after it. Only that first call is answered early; a refused early answer (an access
 * token the session renews first) is asked again, with the session's token.
 */
export function withEarlyMe(auth: AuthAdapter): AuthAdapter {
  let early = hasStoredSession() ? auth.me() : null;
  // Handled when the session takes it; until then a refusal is not an unhandled rejection.
  early?.catch(() => {});
  return {
    ...auth,
    me(options) {
      const answer = early;
      early = null;
      return answer ? answer.catch(() => auth.me(options)) : auth.me(options);
    },
  };
}

/**
 * `fetch` for the HTTP layer, answering its first GET /me with the one the HTML's first-load script
 * already sent with the stored token (app/route-preload.ts): in flight while the entry downloads, it is
 * no longer a round trip between the entry running and the first render. Every other call, and /me
 * after that, is `fetch`'s own.
 */
export function withSentMe(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  let sent = takeSentMe();
  return (input, init) => {
    if (sent && isGetMe(input, init)) {
      const answer = sent;
      sent = null;
      return answer;
    }
    return fetch(input, init);
  };
}

function isGetMe(input: RequestInfo | URL, init: RequestInit | undefined): boolean {
  const request = input instanceof Request ? input : null;
  const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
  const url = new URL(request ? request.url : String(input), location.href);
  return method === 'GET' && url.origin === location.origin && url.pathname === ME_PATH;
}
