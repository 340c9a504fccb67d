import { POINTS } from './limits';
import { conversionOverBalance, VALIDATION_MESSAGES as M } from './messages';

/** Tokens received for `points` (DECISIONS.md: 10 points = 1 token, rounded down). */
export function tokensFor(points: number): number {
  if (!Number.isFinite(points) || points <= 0) return 0;
  return Math.floor(points / POINTS.pointsPerToken);
}

/**
 * Why the conversion modal refuses `points`, or null: a whole number, at least 100, no more than
 * the balance, in steps of 10. The balance is checked before the step so that a too-large amount
 * says so rather than asking for a different step.
 */
export function conversionError(points: number, balance: number): string | null {
  if (!Number.isInteger(points)) return M.conversionWhole;
  if (points < POINTS.minConversion) return M.conversionMinimum;
  if (points > balance) return conversionOverBalance(Math.max(0, Math.floor(balance)));
  if (points % POINTS.conversionStep !== 0) return M.conversionStep;
  return null;
}

/** Whether the conversion modal's button is enabled for `points`. */
export function canConvert(points: number, balance: number): boolean {
  return conversionError(points, balance) === null;
}

/** The wallet screen's own check: 'Invalid amount to convert!' unless 0 < amount <= balance. */
export function walletConversionError(amount: number, balance: number): string | null {
  return amount > 0 && amount <= balance ? null : M.invalidConversion;
}

/** 'Insufficient tokens!' when spending more than the balance. */
export function spendError(amount: number, balance: number): string | null {
  return amount > balance ? M.insufficientTokens : null;
}

export type PointsEntryType = 'earned' | 'spent' | 'converted';

/** One line of the points history (spec section 3). */
export interface PointsHistoryEntry {
  points: number;
  activity: string;
  /** ISO 8601. */
  timestamp: string;
  type: PointsEntryType;
}

/** A guest's local points: the balance, the history oldest first, and the last action's error. */
export interface PointsState {
  balance: number;
  history: readonly PointsHistoryEntry[];
  error: string | null;
}

/** What a guest can do with points; `at` (ISO) is passed in to keep the reducer pure. */
export type PointsAction =
  | { type: 'earn'; points: number; activity: string; at: string }
  | { type: 'spend'; points: number; activity: string; at: string }
  | { type: 'convert'; points: number; activity: string; at: string };

/** The activity names of a guest's two sample history entries. */
export const GUEST_SAMPLE_ACTIVITIES = { welcomeBonus: 'Welcome bonus', firstMeal: 'First meal' };

/** A new guest: 100 points and the two sample entries (welcome bonus 25, first meal 10). */
export function initialGuestPoints(at: string): PointsState {
  return {
    balance: POINTS.guestStart,
    history: [
      {
        points: POINTS.guestWelcomeBonus,
        activity: GUEST_SAMPLE_ACTIVITIES.welcomeBonus,
        timestamp: at,
        type: 'earned',
      },
      {
        points: POINTS.guestFirstMeal,
        activity: GUEST_SAMPLE_ACTIVITIES.firstMeal,
        timestamp: at,
        type: 'earned',
      },
    ],
    error: null,
  };
}

const ENTRY_TYPE: Record<PointsAction['type'], PointsEntryType> = {
  earn: 'earned',
  spend: 'spent',
  convert: 'converted',
};

/**
 * The guest points model: earn adds, spend and convert subtract. A refused action leaves balance
 * and history alone and sets `error`; an accepted one clears it. Amounts that are not positive
 * numbers are ignored for earn and spend (nothing to record) and refused for convert, as the
 * wallet screen refuses them.
 */
export function pointsReducer(state: PointsState, action: PointsAction): PointsState {
  const { points } = action;
  const positive = Number.isFinite(points) && points > 0;
  let error: string | null = null;
  if (action.type === 'convert') error = walletConversionError(points, state.balance);
  else if (!positive) return state.error === null ? state : { ...state, error: null };
  else if (action.type === 'spend') error = spendError(points, state.balance);
  if (error) return { ...state, error };

  const sign = action.type === 'earn' ? 1 : -1;
  const entry: PointsHistoryEntry = {
    points,
    activity: action.activity,
    timestamp: action.at,
    type: ENTRY_TYPE[action.type],
  };
  return {
    balance: state.balance + sign * points,
    history: [...state.history, entry],
    error: null,
  };
}
