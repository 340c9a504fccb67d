import './app.css';

import { createHttpApi, withAwardRefresh } from 'ayah-coach';
import { type AuthHandle, AuthProvider } from 'ayah-coach/auth';
import { createRef, startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { ApiProvider } from './api';
import { withEarlyMe, withSentMe } from './early-me';
import { storedToken } from './first-load';
import { AppShell } from './layout/AppShell';
import { ErrorBoundary } from './layout/ErrorBoundary';
import { AppRoutes } from './router';

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

// The first render as a transition: React renders it in small slices between which the browser stays
// responsive (one long task otherwise, the first load's biggest).
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <ErrorBoundary>
        <ApiProvider api={api}>
          <AuthProvider adapter={sessionAdapter} ref={auth}>
            <AppShell>
              <AppRoutes />
            </AppShell>
          </AuthProvider>
        </ApiProvider>
      </ErrorBoundary>
    </StrictMode>,
  ),
);
