import { assign, fromPromise } from 'xstate';

import {
  conversionSetup,
  DEFAULT_CONVERSION_INFO,
  parseAmount,
  refusal,
  settledAs,
} from './conversion.setup';
import type { WalletAdapter } from './wallet.adapter';

/**
 * The conversion modal (spec section 4, "Point conversion"): `closed` → `open` → `converting` →
 * (`following` the transaction while it is pending) → `pending`, `success` or `failed`.
 */
export const conversionMachine = conversionSetup.createMachine({
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
