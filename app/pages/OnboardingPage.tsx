import { Onboarding, useAuth } from 'ayah-coach/auth';
import { useLocation } from 'wouter';

import { useApi } from '../api';

/** The first run, for a signed-in student whose onboarding is not complete. */
export default function Page() {
  const api = useApi();
  const { user, updateUser } = useAuth();
  const [, navigate] = useLocation();
  return (
    <Onboarding
      adapter={api.auth}
      name={user?.display_name}
      onDone={({ user: next }) => {
        if (next) updateUser(next);
        navigate('/assistant', { replace: true });
      }}
    />
  );
}
