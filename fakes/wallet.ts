/**
 * A fake wallet adapter for machine tests, component tests and stories: a balance of 1250 points and
 * 125 AYAH (the spec's client sample), conversions that succeed at once, and a page of activity.
 * No test framework is imported, so stories and tests share it.
 */
import { POINTS } from '../src/lib/limits';
import type {
  Balance,
  Transaction,
  WalletActivity,
  WalletAdapter,
} from '../src/wallet/wallet.adapter';

export { apiError, deferred } from './chat';

export const sampleBalance: Balance = { points: 1250, tokens: 125 };

export function activityItem(
  type: WalletActivity['type'],
  amount: number,
  description: string,
  timestamp = '2025-03-14T09:00:00Z',
): WalletActivity {
  const converted = type === 'converted';
  return {
    type,
    amount,
    pointsUsed: converted ? amount : null,
    tokensReceived: converted ? Math.floor(amount / 10) : null,
    description,
    timestamp,
    category: converted ? 'conversion' : 'reward',
  };
}

export const sampleActivity: WalletActivity[] = [
  activityItem('converted', 200, 'Converted to AYAH', '2025-03-14T09:00:00Z'),
  activityItem('earned', 50, 'Reached 100% on a goal', '2025-03-13T16:30:00Z'),
  activityItem('earned', 50, 'Sent 10 messages to Ayah', '2025-03-12T11:15:00Z'),
  activityItem('deducted', 50, 'Goal target raised', '2025-03-11T10:00:00Z'),
  activityItem('earned', 50, 'Completed onboarding', '2025-03-10T18:45:00Z'),
];

/** `count` activity rows, newest first, for paging. */
export function manyActivities(count: number): WalletActivity[] {
  return Array.from({ length: count }, (_, i) =>
    activityItem(
      i % 3 === 0 ? 'converted' : 'earned',
      100 + i * 10,
      `Activity ${i + 1}`,
      new Date(Date.UTC(2025, 2, 28) - i * 86_400_000).toISOString(),
    ),
  );
}

export function transaction(status: Transaction['status'], points = 200, id = 'tx-1'): Transaction {
  return {
    id,
    status,
    points,
    tokens: Math.floor(points / POINTS.pointsPerToken),
    created_at: '2025-03-14T09:00:00Z',
  };
}

export type WalletCall = { method: keyof WalletAdapter; args: unknown[] };
export type FakeWalletAdapter = WalletAdapter & { calls: WalletCall[] };

/** A fake WalletAdapter over `activity`; `overrides` replace single calls. Calls are recorded. */
export function fakeWalletAdapter(
  overrides: Partial<WalletAdapter> = {},
  {
    balance = sampleBalance,
    activity = sampleActivity,
  }: { balance?: Balance; activity?: WalletActivity[] } = {},
): FakeWalletAdapter {
  const calls: WalletCall[] = [];
  const base: WalletAdapter = {
    conversionInfo: async () => ({
      points_per_token: 10,
      min_points: 100,
      step: 10,
      token_name: 'AYAH',
    }),
    balance: async () => balance,
    convert: async ({ points }) => ({ transaction: transaction('success', points) }),
    transaction: async (id) => ({ transaction: transaction('success', 200, id) }),
    activity: async ({ limit = 10, page = 1 } = {}) => ({
      data: activity.slice((page - 1) * limit, page * limit),
      total: activity.length,
      page,
      limit,
      hasMore: page * limit < activity.length,
    }),
    distributionBalances: async () => ({ tokens_distributed: 125, points_converted: 1250 }),
    ...overrides,
  };
  const recorded = Object.fromEntries(
    Object.entries(base).map(([method, call]) => [
      method,
      (...args: unknown[]) => {
        calls.push({ method: method as keyof WalletAdapter, args: args.slice(0, -1) });
        return (call as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as WalletAdapter;
  return Object.assign(recorded, { calls });
}
