import { useLocation } from 'wouter';
import { useAuth } from 'ayah-coach/auth';
import { Settings } from 'ayah-coach/settings';
import { Wallet } from 'ayah-coach/wallet';
import { useApi } from '../api';

/** /settings: Profile, Security, Data Controls and the wallet. */
export default function Page() {
  const api = useApi();
  const { user, updateUser, signOut } = useAuth();
  const [, navigate] = useLocation();
  if (!user) return null;
  return (
    <main className="ay:flex ay:flex-1 ay:justify-center ay:overflow-y-auto">
      <Settings
        adapter={api.settings}
        user={user}
        onUserChange={updateUser}
        onAccountDeleted={() => {
          signOut();
          navigate('/auth', { replace: true });
        }}
        wallet={<Wallet adapter={api.wallet} headingLevel="h2" className="ay:p-0" />}
      />
    </main>
  );
}
