import { OAuthCallback, useAuth } from 'ayah-coach/auth';
import { useLocation } from 'wouter';

import { useApi } from '../api';

/** The return from Google sign-in: exchanges the one-time code, clears the address bar, moves on. */
export default function Page() {
  const api = useApi();
  const { user, isLoading, signIn } = useAuth();
  const [, navigate] = useLocation();
  return (
    <OAuthCallback
      adapter={api.auth}
      currentUser={user}
      sessionPending={isLoading}
      onSignedIn={signIn}
      onNavigate={(path) => navigate(path, { replace: true })}
    />
  );
}
