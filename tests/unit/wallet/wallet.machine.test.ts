import { describe, expect, it } from 'vitest';
import { type Actor, createActor, waitFor } from 'xstate';

import { apiError, deferred, fakeWalletAdapter, manyActivities } from '../../../fakes/wallet';
import type { Balance } from '../../../src/wallet/wallet.adapter';
import { walletLogic, walletMachine } from '../../../src/wallet/wallet.machine';

const ready = (actor: Actor<typeof walletMachine>) =>
  waitFor(actor, (s) => s.matches('ready'), { timeout: 1000 });

describe('wallet machine', () => {
  it('fails loudly without an adapter', async () => {
    const actor = createActor(walletMachine).start();
    await waitFor(actor, (s) => s.matches('failed'));
  });

  it('loading → ready with the balance and the first activity page', async () => {
    const balance = deferred<Balance>();
    const adapter = fakeWalletAdapter({ balance: () => balance.promise });
    const actor = createActor(walletLogic(adapter)).start();
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    balance.resolve({ points: 1250, tokens: 125 });
    await ready(actor);
    const { context } = actor.getSnapshot();
    expect(context.balance).toEqual({ points: 1250, tokens: 125 });
    expect(context.activity).toHaveLength(5);
    expect(adapter.calls.map((c) => c.method)).toEqual(['balance', 'activity']);
    expect(adapter.calls[1]!.args).toEqual([{ limit: 10, page: 1 }]);
  });

  it('pages through the activity', async () => {
    const adapter = fakeWalletAdapter({}, { activity: manyActivities(25) });
    const actor = createActor(walletLogic(adapter)).start();
    await ready(actor);
    expect(actor.getSnapshot().can({ type: 'activity.previous' })).toBe(false);
    actor.send({ type: 'activity.next' });
    expect(actor.getSnapshot().value).toBe('paging');
    await ready(actor);
    actor.send({ type: 'activity.next' });
    await ready(actor);
    const { context } = actor.getSnapshot();
    expect(context.page).toBe(3);
    expect(context.activity.map((a) => a.description)).toEqual([
      'Activity 21',
      'Activity 22',
      'Activity 23',
      'Activity 24',
      'Activity 25',
    ]);
    expect(actor.getSnapshot().can({ type: 'activity.next' })).toBe(false);
    actor.send({ type: 'activity.previous' });
    await ready(actor);
    expect(actor.getSnapshot().context.page).toBe(2);
  });

  it('fails, then reloads on wallet.refresh', async () => {
    let fail = true;
    const adapter = fakeWalletAdapter({
      balance: async () => {
        if (fail) throw apiError();
        return { points: 10, tokens: 0 };
      },
    });
    const actor = createActor(walletLogic(adapter)).start();
    await waitFor(actor, (s) => s.matches('failed'));
    fail = false;
    actor.send({ type: 'wallet.refresh' });
    await ready(actor);
    expect(actor.getSnapshot().context.balance).toEqual({ points: 10, tokens: 0 });
  });
});
