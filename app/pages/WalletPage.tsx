import { Wallet } from 'ayah-coach/wallet';
import { useApi } from '../api';

/** /wallet: the points and AYAH balances, activity and the conversion. */
export default function Page() {
  const api = useApi();
  return (
    <main className="ay:flex ay:flex-1 ay:justify-center ay:overflow-y-auto">
      <Wallet adapter={api.wallet} />
    </main>
  );
}
