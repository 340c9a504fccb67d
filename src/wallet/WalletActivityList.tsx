import type { WalletActivity } from './wallet.adapter';

const SIGN: Record<WalletActivity['type'], string> = { earned: '+', converted: '−', deducted: '−' };
const LABEL: Record<WalletActivity['type'], string> = {
  earned: 'Earned',
  converted: 'Converted',
  deducted: 'Deducted',
};

/** Recent activity: what changed the points, by how much, when and why. */
export function WalletActivityList({
  activity,
  tokenName,
  labelledBy,
}: {
  activity: WalletActivity[];
  tokenName: string;
  labelledBy: string;
}) {
  return (
    <ul aria-labelledby={labelledBy} className="ay:flex ay:flex-col">
      {activity.map((item, index) => (
        <li
          key={`${item.timestamp}-${index}`}
          data-type={item.type}
          className="ay:flex ay:items-center ay:justify-between ay:gap-3 ay:border-b ay:border-border ay:py-3 ay:last:border-b-0"
        >
          <div className="ay:flex ay:min-w-0 ay:flex-col">
            <span className="ay:truncate ay:text-sm ay:font-medium">{item.description}</span>
            <span className="ay:text-xs ay:text-muted-foreground">
              {LABEL[item.type]} ·{' '}
              <time dateTime={item.timestamp}>{formatDate(item.timestamp)}</time>
              {item.type === 'converted' && item.tokensReceived !== null && (
                <>
                  {' '}
                  · {item.tokensReceived} {tokenName} received
                </>
              )}
            </span>
          </div>
          <span
            className={
              item.type === 'earned'
                ? 'ay:shrink-0 ay:text-sm ay:font-semibold ay:text-success'
                : 'ay:shrink-0 ay:text-sm ay:font-semibold'
            }
          >
            {SIGN[item.type]}
            {item.amount} points
          </span>
        </li>
      ))}
    </ul>
  );
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}
