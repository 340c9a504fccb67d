import './app.css';

import { createHttpApi, withAwardRefresh } from 'ayah-coach';
import type { AuthHandle } from 'ayah-coach/auth';
import { createRef, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';

import { AppTree } from './app-tree';
import { withEarlyMe, withSentMe } from './early-me';
import { storedToken, takePrerendered } from './first-load';
import { firstPageLoaded } from './router';

// The HTTP layer reads the token from the session and reports 401s and TRIAL_EXPIRED back to it.
const auth = createRef<AuthHandle>();
// Every call that can award points is followed by the wallet refresh (award-refresh.ts).
const api = withAwardRefresh(
  createHttpApi({
    baseURL: '',
    // Before the session has mounted (the early /me below), the token it is about to load.
    getToken: () => (auth.current ? auth.current.getToken() : storedToken()),
    onUnauthorized: () => auth.current?.unauthorized(),
    onTrialExpired: () => auth.current?.trialExpired(),
    // The first GET /me may already be on its way, sent by the HTML's first-load script.
    fetch: withSentMe(globalThis.fetch.bind(globalThis)),
  }),
);
const sessionAdapter = withEarlyMe(api.auth);
const app = <AppTree api={api} sessionAdapter={sessionAdapter} auth={auth} />;

// The first render as a transition: React renders (or hydrates) it in small slices between which the
// browser stays responsive (one long task otherwise, the first load's biggest).
const container = document.getElementById('root')!;
// The screen the build prerendered for this visit (scripts/prerender.mjs), which the HTML already
// shows: React takes it over as it is. Any other visit renders from nothing.
const prerendered = takePrerendered(container);
// The page's code was preloaded beside the entry's: the hydration waits for it, so that the screen is
// the app's in one pass and input held on it (early-input.ts) finds the page's own controls.
if (prerendered) {
  void firstPageLoaded().then(() =>
    startTransition(() => {
      hydrateRoot(prerendered, app);
    }),
  );
} else {
  startTransition(() => {
    createRoot(container).render(app);
  });
}
