import { assign, emit, fromPromise, setup } from 'xstate';

import { ApiError } from '../lib/http-errors';
import { POINTS } from '../lib/limits';
import { WALLET_UI_MESSAGES } from '../lib/messages';
import { conversionError, tokensFor } from '../lib/points';
import { stubActor } from '../lib/stub-actor';
import type {
  ConversionInfo,
  Transaction,
  TransactionResponse,
  WalletAdapter,
} from './wallet.adapter';

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

function refusal(error: unknown): string {
  if (error instanceof ApiError && typeof error.detail === 'string' && error.detail.trim())
    return `${error.detail.trim()} ${WALLET_UI_MESSAGES.failedText}`;
  return WALLET_UI_MESSAGES.convertFailed;
}

const settledAs = (status: Transaction['status']) => ({
  guard: ({ context }: { context: ConversionContext }) => context.transaction?.status === status,
});

/**
 * The conversion modal (spec section 4, "Point conversion"): `closed` → `open` → `converting` →
 * (`following` the transaction while it is pending) → `pending`, `success` or `failed`.
 */
export const conversionMachine = setup({
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
}).createMachine({
  id: 'conversion',
  context: {
    balance: 0,
    info: DEFAULT_CONVERSION_INFO,
    amount: '',
    transaction: null,
    error: null,
    checks: 0,
  },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'conversion.open': {
          target: 'open',
          actions: assign({
            balance: ({ event }) => event.balance,
            amount: '',
            transaction: null,
            error: null,
            checks: 0,
          }),
        },
      },
    },
    open: {
      initial: 'loading',
      on: { 'conversion.close': 'closed' },
      states: {
        loading: {
          invoke: {
            src: 'conversionInfo',
            onDone: { target: 'editing', actions: assign({ info: ({ event }) => event.output }) },
            // The rule is known (DECISIONS.md); the server checks it again anyway.
            onError: 'editing',
          },
          on: { 'amount.change': { actions: assign({ amount: ({ event }) => event.value }) } },
        },
        editing: {
          on: {
            'amount.change': {
              actions: assign({ amount: ({ event }) => event.value, error: null }),
            },
            'conversion.submit': { guard: 'validAmount', target: '#conversion.converting' },
          },
        },
      },
    },
    converting: {
      tags: ['busy'],
      invoke: {
        src: 'convert',
        input: ({ context }) => ({ points: parseAmount(context.amount) }),
        onDone: {
          target: 'following',
          actions: [{ type: 'keepTransaction', params: ({ event }) => event.output }, 'changed'],
        },
        onError: {
          target: 'open.editing',
          actions: assign({ error: ({ event }) => refusal(event.error) }),
        },
      },
    },
    following: {
      tags: ['busy'],
      initial: 'deciding',
      states: {
        deciding: {
          always: [
            { ...settledAs('success'), target: '#conversion.success' },
            { ...settledAs('failed'), target: '#conversion.failed' },
            { guard: 'moreChecks', target: 'waiting' },
            { target: '#conversion.pending' },
          ],
        },
        waiting: { after: { backoff: 'checking' } },
        checking: {
          invoke: {
            src: 'transaction',
            input: ({ context }) => ({ id: context.transaction?.id ?? '' }),
            onDone: {
              target: 'deciding',
              actions: [
                { type: 'keepTransaction', params: ({ event }) => event.output },
                assign({ checks: ({ context }) => context.checks + 1 }),
              ],
            },
            // A look that fails counts as a look; the transaction is still what it was.
            onError: {
              target: 'deciding',
              actions: assign({ checks: ({ context }) => context.checks + 1 }),
            },
          },
        },
      },
    },
    pending: { on: { 'conversion.close': { target: 'closed', actions: 'changed' } } },
    success: { on: { 'conversion.close': { target: 'closed', actions: 'changed' } } },
    failed: { on: { 'conversion.close': { target: 'closed', actions: 'changed' } } },
  },
});

/** The conversion machine over `adapter`'s calls. */
export function conversionLogic(adapter: WalletAdapter) {
  return conversionMachine.provide({
    actors: {
      conversionInfo: fromPromise(({ signal }) => adapter.conversionInfo({ signal })),
      convert: fromPromise(({ input, signal }) => adapter.convert(input, { signal })),
      transaction: fromPromise(({ input, signal }) => adapter.transaction(input.id, { signal })),
    },
  });
}
