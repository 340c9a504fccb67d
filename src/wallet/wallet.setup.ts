import { assign, setup } from 'xstate';

import { stubActor } from '../lib/stub-actor';
import type { Paged, PageQuery } from '../wire';
import type { Balance, WalletActivity } from './wallet.adapter';
import type { WalletContext, WalletEvent } from './wallet.types';

const HOW = 'create the machine with walletLogic(adapter)';

/** Activity rows a page. */
export const ACTIVITY_PAGE_SIZE = 10;

type ActivityPage = Paged<'data', WalletActivity>;

/** Types, actors (stubs until they are provided), guards and actions of `walletMachine`. */
export const walletSetup = setup({
  types: {
    context: {} as WalletContext,
    events: {} as WalletEvent,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    balance: stubActor<Balance, void>('balance', HOW),
    activity: stubActor<ActivityPage, PageQuery>('activity', HOW),
  },
  actions: {
    showPage: assign((_, output: ActivityPage) => ({
      activity: output.data,
      page: output.page,
      hasMore: output.hasMore,
      total: output.total,
    })),
  },
});
