import { assign, fromPromise } from 'xstate';

import type { WalletAdapter } from './wallet.adapter';
import { ACTIVITY_PAGE_SIZE, walletSetup } from './wallet.setup';

/**
 * The wallet page (spec section 2, "Wallet page"): the balances and a page of recent activity.
 * `loading` reads the balance then the activity; `ready` pages through it; `failed` offers a retry.
 * 'wallet.refresh' (after a conversion or an award) reloads both, keeping what is shown meanwhile.
 */
export const walletMachine = walletSetup.createMachine({
  id: 'wallet',
  context: { balance: null, activity: [], page: 1, hasMore: false, total: 0 },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      initial: 'balance',
      states: {
        balance: {
          invoke: {
            src: 'balance',
            onDone: {
              target: 'activity',
              actions: assign({ balance: ({ event }) => event.output }),
            },
            onError: '#wallet.failed',
          },
        },
        activity: {
          invoke: {
            src: 'activity',
            input: ({ context }) => ({ limit: ACTIVITY_PAGE_SIZE, page: context.page }),
            onDone: {
              target: '#wallet.ready',
              actions: { type: 'showPage', params: ({ event }) => event.output },
            },
            onError: '#wallet.failed',
          },
        },
      },
    },
    ready: {
      on: {
        'wallet.refresh': 'loading',
        'activity.next': {
          guard: ({ context }) => context.hasMore,
          target: 'paging',
          actions: assign({ page: ({ context }) => context.page + 1 }),
        },
        'activity.previous': {
          guard: ({ context }) => context.page > 1,
          target: 'paging',
          actions: assign({ page: ({ context }) => context.page - 1 }),
        },
      },
    },
    paging: {
      tags: ['busy'],
      invoke: {
        src: 'activity',
        input: ({ context }) => ({ limit: ACTIVITY_PAGE_SIZE, page: context.page }),
        onDone: {
          target: 'ready',
          actions: { type: 'showPage', params: ({ event }) => event.output },
        },
        onError: 'failed',
      },
    },
    failed: {
      on: { 'wallet.refresh': 'loading' },
    },
  },
});

/** The wallet machine over `adapter`'s calls. */
export function walletLogic(adapter: WalletAdapter) {
  return walletMachine.provide({
    actors: {
      balance: fromPromise(({ signal }) => adapter.balance({ signal })),
      activity: fromPromise(({ input, signal }) => adapter.activity(input, { signal })),
    },
  });
}
