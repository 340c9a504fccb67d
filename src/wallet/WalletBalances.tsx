import { POINTS } from '../lib/limits';
import { Skeleton } from '../ui/skeleton';
import type { Balance } from './wallet.adapter';

export type WalletBalancesProps = {
  /** The balances, or null while they load. */
  balance: Balance | null;
  /** @default 'AYAH' */
  tokenName?: string;
};

/** The points balance and the token balance, side by side. */
export function WalletBalances({ balance, tokenName = POINTS.tokenName }: WalletBalancesProps) {
  return (
    <dl data-slot="wallet-balances" className="ay:grid ay:grid-cols-2 ay:gap-3">
      <Amount label="Points balance" value={balance?.points} unit="points" />
      <Amount label={`${tokenName} balance`} value={balance?.tokens} unit={tokenName} />
    </dl>
  );
}

function Amount({
  label,
  value,
  unit,
}: {
  label: string;
  value: number | undefined;
  unit: string;
}) {
  return (
    <div className="ay:flex ay:flex-col ay:gap-1 ay:rounded-lg ay:border ay:border-border ay:bg-surface ay:p-4">
      <dt className="ay:text-sm ay:text-muted-foreground">{label}</dt>
      <dd className="ay:text-2xl ay:font-semibold">
        {value === undefined ? (
          <Skeleton className="ay:h-8 ay:w-20" />
        ) : (
          <>
            {value.toLocaleString('en-US')}{' '}
            <span className="ay:text-sm ay:font-normal">{unit}</span>
          </>
        )}
      </dd>
    </div>
  );
}
