import { type AuthMode, AuthScreen, useAuth } from 'ayah-coach/auth';
import { useLocation } from 'wouter';

import { useApi } from '../api';

const MODES: Record<string, AuthMode> = { '/login': 'signIn', '/register': 'signUp' };

/** /auth, and its aliases /login and /register that open the email form in that mode. */
export default function Page() {
  const api = useApi();
  const { signIn } = useAuth();
  const [pathname, navigate] = useLocation();
  return (
    <AuthScreen
      key={pathname}
      adapter={api.auth}
      mode={MODES[pathname]}
      onSignedIn={signIn}
      onNavigate={(path) => navigate(path)}
    />
  );
}
