/**
 * A guest's wallet (id guest-user, DECISIONS.md): points kept in the browser, behind the same
 * `WalletAdapter` the server's wallet speaks, so `<Wallet adapter={guestWallet()} />` is the whole
 * guest screen. A signed-in student's points always come from the server instead.
 */
import { ApiError } from '../lib/http-errors';
import { AUTH, POINTS } from '../lib/limits';
import {
  initialGuestPoints,
  type PointsAction,
  type PointsHistoryEntry,
  pointsReducer,
  type PointsState,
} from '../lib/points';
import type { Transaction, WalletActivity, WalletAdapter } from './wallet.adapter';

type KeyValue = Pick<Storage, 'getItem' | 'setItem'>;

/** Where a guest's points live in local storage. */
export const GUEST_POINTS_KEY = `ayah:points:${AUTH.guestUserId}`;

/** The guest wallet: a `WalletAdapter`, plus earning and spending for the host's own rewards. */
export interface GuestWallet extends WalletAdapter {
  /** The balance and history now. */
  state(): PointsState;
  /** Adds points; nothing happens for amounts that are not positive. */
  earn(points: number, activity: string): PointsState;
  /** Takes points away; throws 'Insufficient tokens!' beyond the balance. */
  spend(points: number, activity: string): PointsState;
  /** Converts points to tokens; throws 'Invalid amount to convert!' unless 0 < points ≤ balance. */
  convertPoints(points: number, activity?: string): PointsState;
}

const TYPES: Record<PointsHistoryEntry['type'], WalletActivity['type']> = {
  earned: 'earned',
  spent: 'deducted',
  converted: 'converted',
};

function toActivity(entry: PointsHistoryEntry): WalletActivity {
  const converted = entry.type === 'converted';
  return {
    type: TYPES[entry.type],
    amount: entry.points,
    pointsUsed: converted ? entry.points : null,
    tokensReceived: converted ? Math.floor(entry.points / POINTS.pointsPerToken) : null,
    description: entry.activity,
    timestamp: entry.timestamp,
    category: 'guest',
  };
}

function read(storage: KeyValue | null, now: () => Date): PointsState {
  try {
    const raw = storage?.getItem(GUEST_POINTS_KEY);
    if (raw) {
      const value = JSON.parse(raw) as Partial<PointsState>;
      if (typeof value.balance === 'number' && Array.isArray(value.history))
        return { balance: value.balance, history: value.history, error: null };
    }
  } catch {
    // Unreadable storage: start over.
  }
  return initialGuestPoints(now().toISOString());
}

function browserStorage(): KeyValue | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * A guest wallet over `storage` (the browser's local storage by default; in memory when it is
 * refused). A new guest starts with 100 points and the two sample entries.
 */
export function guestWallet(
  storage: KeyValue | null = browserStorage(),
  now: () => Date = () => new Date(),
): GuestWallet {
  let state = read(storage, now);
  const transactions = new Map<string, Transaction>();

  function apply(action: Omit<PointsAction, 'at'>): PointsState {
    const next = pointsReducer(state, { ...action, at: now().toISOString() } as PointsAction);
    if (next.error) throw new ApiError(400, next.error, next.error);
    state = next;
    try {
      storage?.setItem(
        GUEST_POINTS_KEY,
        JSON.stringify({ balance: state.balance, history: state.history }),
      );
    } catch {
      // Quota or privacy mode: the points live on in memory for this page.
    }
    return state;
  }

  const tokens = () =>
    state.history
      .filter((entry) => entry.type === 'converted')
      .reduce((sum, entry) => sum + Math.floor(entry.points / POINTS.pointsPerToken), 0);

  const wallet: GuestWallet = {
    state: () => state,
    earn: (points, activity) => apply({ type: 'earn', points, activity }),
    spend: (points, activity) => apply({ type: 'spend', points, activity }),
    convertPoints: (points, activity = `Converted to ${POINTS.tokenName}`) =>
      apply({ type: 'convert', points, activity }),

    conversionInfo: async () => ({
      points_per_token: POINTS.pointsPerToken,
      min_points: POINTS.minConversion,
      step: POINTS.conversionStep,
      token_name: POINTS.tokenName,
    }),
    balance: async () => ({ points: state.balance, tokens: tokens() }),
    convert: async ({ points }) => {
      wallet.convertPoints(points);
      const transaction: Transaction = {
        id: `guest-${transactions.size + 1}`,
        status: 'success',
        points,
        tokens: Math.floor(points / POINTS.pointsPerToken),
        created_at: now().toISOString(),
      };
      transactions.set(transaction.id, transaction);
      return { transaction };
    },
    transaction: async (id) => {
      const transaction = transactions.get(id);
      if (!transaction) throw new ApiError(404, 'Resource not found.');
      return { transaction };
    },
    activity: async ({ limit = 10, page = 1 } = {}) => {
      const all = [...state.history].reverse().map(toActivity);
      const data = all.slice((page - 1) * limit, page * limit);
      return { data, total: all.length, page, limit, hasMore: page * limit < all.length };
    },
    distributionBalances: async () => ({
      tokens_distributed: tokens(),
      points_converted: tokens() * POINTS.pointsPerToken,
    }),
  };
  return wallet;
}
