import type { Api } from 'ayah-coach';
import { type AuthHandle, AuthProvider, type TokenStorage, useAuth } from 'ayah-coach/auth';
import { type Ref, StrictMode, useEffect } from 'react';

import { ApiProvider } from './api';
import { replayEarlyInput } from './early-input';
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
            <EarlyInput />
          </AuthProvider>
        </ApiProvider>
      </ErrorBoundary>
    </StrictMode>
  );
}

/**
 * Once the session knows who is there, the page is the one they get (the signed-in shell's preview
 * has become their chat): the input held on the prerendered screen is done again on it.
 */
function EarlyInput() {
  const { isLoading } = useAuth();
  const settled = !isLoading;
  useEffect(() => {
    if (settled) void replayEarlyInput();
  }, [settled]);
  return null;
}
