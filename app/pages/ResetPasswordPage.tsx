import { ResetPassword } from 'ayah-coach/auth';
import { useLocation, useSearchParams } from 'wouter';

import { useApi } from '../api';

/** /reset-password?token=… from the emailed link. */
export default function Page() {
  const api = useApi();
  const [, navigate] = useLocation();
  const [params] = useSearchParams();
  return (
    <ResetPassword
      adapter={api.auth}
      token={params.get('token')}
      onNavigate={(path) => navigate(path)}
    />
  );
}
