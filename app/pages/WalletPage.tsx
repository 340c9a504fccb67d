import { Wallet } from 'ayah-coach/wallet';

import { useApi } from '../api';
import { SidebarLayout } from '../layout/SidebarLayout';

/** /wallet: the points and AYAH balances, activity and the conversion. */
export default function Page() {
  const api = useApi();
  return (
    <SidebarLayout title="Wallet">
      {/* On phones the header's title is the page's h1, and the only "Wallet" heading. */}
      {(wide) => (
        <div className="ay:flex ay:min-h-0 ay:flex-1 ay:justify-center ay:overflow-y-auto">
          <Wallet adapter={api.wallet} headingLevel={wide ? 'h1' : null} />
        </div>
      )}
    </SidebarLayout>
  );
}
