import { useEffect, useState } from 'react';

import type { AuthAdapter, AuthProviders } from '../auth.adapter';

const EVERY_WAY: AuthProviders = { email: true, google: true, wallet: true };

/**
 * Which sign-in ways the server offers (`adapter.providers`), asked once per screen. Every way counts as
 * offered until the answer comes, and when the adapter cannot tell or the call fails: a button that
 * might work beats one hidden by a passing network error.
 */
export function useProviders(adapter: AuthAdapter): AuthProviders {
  const [providers, setProviders] = useState<AuthProviders>(EVERY_WAY);
  useEffect(() => {
    if (!adapter.providers) return;
    const controller = new AbortController();
    adapter
      .providers({ signal: controller.signal })
      .then((answer) => !controller.signal.aborted && setProviders({ ...EVERY_WAY, ...answer }))
      .catch(() => {});
    return () => controller.abort();
  }, [adapter]);
  return providers;
}
