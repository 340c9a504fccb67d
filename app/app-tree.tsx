import type { Api } from 'ayah-coach';
import { type AuthHandle, AuthProvider, type TokenStorage } from 'ayah-coach/auth';
import { type Ref, StrictMode } from 'react';

import { ApiProvider } from './api';
import { AppShell } from './layout/AppShell';
import { ErrorBoundary } from './layout/ErrorBoundary';
import { AppRoutes } from './router';

export interface AppTreeProps {
  api: Api;
  sessionAdapter: Api['auth'];
  auth?: Ref<AuthHandle>;
  /** @default the browser's (the build's prerender passes its own) */
  storage?: TokenStorage;
}

/** The whole app: rendered by the browser (main.tsx) and, at build time, by the prerender (prerender.tsx). */
export function AppTree({ api, sessionAdapter, auth, storage }: AppTreeProps) {
  return (
    <StrictMode>
      <ErrorBoundary>
        <ApiProvider api={api}>
          <AuthProvider adapter={sessionAdapter} ref={auth} storage={storage}>
            <AppShell>
              <AppRoutes />
            </AppShell>
          </AuthProvider>
        </ApiProvider>
      </ErrorBoundary>
    </StrictMode>
  );
}
