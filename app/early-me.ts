import type { Api } from 'ayah-coach';

type AuthAdapter = Api['auth'];
import { hasStoredSession } from './first-load';

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
