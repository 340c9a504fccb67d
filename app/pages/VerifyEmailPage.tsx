import { useAuth, VerifyEmail } from 'ayah-coach/auth';
import { useLocation, useSearchParams } from 'wouter';

import { useApi } from '../api';

/** /verify-email?email=… after sign-up, and /verify-email?token=… from the emailed link. */
export default function Page() {
  const api = useApi();
  const { user, isLoading, signIn } = useAuth();
  const [, navigate] = useLocation();
  const [params] = useSearchParams();
  return (
    <VerifyEmail
      adapter={api.auth}
      email={params.get('email')}
      token={params.get('token')}
      currentUser={user}
      sessionPending={isLoading}
      onSignedIn={signIn}
      onNavigate={(path) => navigate(path)}
      supportHref="mailto:support@ayah.local"
    />
  );
}
