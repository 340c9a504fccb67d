/*
 * The wallet in types: what its machines hold (context), hear (events) and tell the page (emitted).
 * The wire shapes they show stay in `wallet.adapter.ts`.
 */
import type { Balance, ConversionInfo, Transaction, WalletActivity } from './wallet.adapter';

// Balances and activity (wallet.machine.ts).

export type WalletContext = {
  balance: Balance | null;
  activity: WalletActivity[];
  /** The activity page shown, from 1. */
  page: number;
  hasMore: boolean;
  total: number;
};

export type WalletEvent =
  { type: 'wallet.refresh' } | { type: 'activity.next' } | { type: 'activity.previous' };

// The conversion to AYAH (conversion.machine.ts).

export type ConversionContext = {
  /** The points the student has; the amount may not exceed it. */
  balance: number;
  info: ConversionInfo;
  /** What the amount field holds, as typed. */
  amount: string;
  transaction: Transaction | null;
  /** The server's refusal of the last attempt. */
  error: string | null;
  /** Looks taken at a pending transaction. */
  checks: number;
};

export type ConversionEvent =
  | { type: 'conversion.open'; balance: number }
  | { type: 'amount.change'; value: string }
  | { type: 'conversion.submit' }
  | { type: 'conversion.close' };

export type ConversionEmitted = {
  /** Points left the balance (or may have): the wallet reloads. */
  type: 'balance.changed';
};
