import { injectedProvider, useAuth } from 'ayah-coach/auth';
import { type SettingsProps, walletDeletionSigner } from 'ayah-coach/settings';
import { Wallet } from 'ayah-coach/wallet';
import { useLocation } from 'wouter';

import { useApi } from '../api';

/** What the /settings page and the phone's settings popup both give `<Settings>`, or null when signed out. */
export function useSettingsProps(): Omit<SettingsProps, 'headingLevel'> | null {
  const api = useApi();
  const { user, updateUser, signOut } = useAuth();
  const [, navigate] = useLocation();
  if (!user) return null;
  return {
    adapter: api.settings,
    user,
    onUserChange: updateUser,
    onAccountDeleted: () => {
      signOut();
      navigate('/auth', { replace: true });
    },
    // A wallet account confirms its deletion by signing a fresh server nonce with its wallet.
    signDeletion: walletDeletionSigner((body) => api.auth.web3Nonce(body), injectedProvider),
    wallet: <Wallet adapter={api.wallet} headingLevel="h2" className="ay:p-0" />,
  };
}
