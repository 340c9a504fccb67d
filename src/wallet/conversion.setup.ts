import { assign, emit, setup } from 'xstate';

import { serverDetail } from '../lib/http-errors';
import { POINTS } from '../lib/limits';
import { WALLET_UI_MESSAGES } from '../lib/messages';
import { conversionError, tokensFor } from '../lib/points';
import { stubActor } from '../lib/stub-actor';
import type { ConversionInfo, Transaction, TransactionResponse } from './wallet.adapter';
import type { ConversionContext, ConversionEmitted, ConversionEvent } from './wallet.types';

const HOW = 'create the machine with conversionLogic(adapter)';

/** The rule when `/conversion-info` cannot be read: DECISIONS.md's 10 points = 1 token. */
export const DEFAULT_CONVERSION_INFO: ConversionInfo = {
  points_per_token: POINTS.pointsPerToken,
  min_points: POINTS.minConversion,
  step: POINTS.conversionStep,
  token_name: POINTS.tokenName,
};

/** How a pending transaction is followed: the first wait, doubled each time, capped, at most so many looks. */
export const FOLLOW = { firstDelayMs: 500, maxDelayMs: 8000, maxChecks: 6 } as const;

/** The wait before look number `checks` (0-based) at a pending transaction. */
export function followDelay(checks: number): number {
  return Math.min(FOLLOW.firstDelayMs * 2 ** checks, FOLLOW.maxDelayMs);
}

/** The amount as a number (NaN when it is not one). */
export function parseAmount(amount: string): number {
  return amount.trim() === '' ? NaN : Number(amount);
}

/** Why `amount` cannot be converted from `balance`, or null. */
export function amountError(amount: string, balance: number): string | null {
  return conversionError(parseAmount(amount), balance);
}

/** The tokens `amount` buys, live as it is typed (0 for anything that is not a valid count). */
export function tokensToReceive(amount: string, info: ConversionInfo): number {
  const points = parseAmount(amount);
  if (!Number.isInteger(points) || points <= 0) return 0;
  return info.points_per_token === POINTS.pointsPerToken
    ? tokensFor(points)
    : Math.floor(points / info.points_per_token);
}

export function refusal(error: unknown): string {
  const words = serverDetail(error);
  return words ? `${words} ${WALLET_UI_MESSAGES.failedText}` : WALLET_UI_MESSAGES.convertFailed;
}

export const settledAs = (status: Transaction['status']) => ({
  guard: ({ context }: { context: ConversionContext }) => context.transaction?.status === status,
});

/** Types, actors (stubs until they are provided), guards and actions of `conversionMachine`. */
export const conversionSetup = setup({
  types: {
    context: {} as ConversionContext,
    events: {} as ConversionEvent,
    emitted: {} as ConversionEmitted,
    tags: {} as 'busy',
  },
  actors: {
    conversionInfo: stubActor<ConversionInfo, void>('conversionInfo', HOW),
    convert: stubActor<TransactionResponse, { points: number }>('convert', HOW),
    transaction: stubActor<TransactionResponse, { id: string }>('transaction', HOW),
  },
  guards: {
    validAmount: ({ context }) => amountError(context.amount, context.balance) === null,
    moreChecks: ({ context }) => context.checks < FOLLOW.maxChecks,
  },
  delays: {
    backoff: ({ context }) => followDelay(context.checks),
  },
  actions: {
    keepTransaction: assign({
      transaction: (_, output: TransactionResponse) => output.transaction,
    }),
    changed: emit({ type: 'balance.changed' }),
  },
});
