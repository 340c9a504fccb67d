/**
 * A conversion end to end below the browser: the wallet's HTTP adapter (`createHttpApi(…).wallet`)
 * driving the conversion and wallet machines against the real server, over PGlite here and PostgreSQL
 * in `server-pg`. The machine converts, follows the transaction, and the wallet shows both balances;
 * a conversion that fails in the database keeps the points.
 */
import { beforeAll, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';

import { createHttpApi } from '../../../src/http';
import { conversionLogic } from '../../../src/wallet/conversion.machine';
import type { WalletAdapter } from '../../../src/wallet/wallet.adapter';
import { walletLogic } from '../../../src/wallet/wallet.machine';
import type { TestUser } from '../harness';
import { describeServer, useTestServer } from '../harness';

const h = useTestServer();

function walletOf(user: TestUser): WalletAdapter {
  return createHttpApi({ baseURL: h.url, getToken: () => user.token }).wallet;
}

/** Runs one conversion of `points` through the machine to its result screen. */
async function convert(adapter: WalletAdapter, balance: number, points: number) {
  const actor = createActor(conversionLogic(adapter)).start();
  const changed: string[] = [];
  actor.on('balance.changed', () => changed.push('changed'));
  actor.send({ type: 'conversion.open', balance });
  await waitFor(actor, (s) => s.matches({ open: 'editing' }), { timeout: 5000 });
  actor.send({ type: 'amount.change', value: String(points) });
  actor.send({ type: 'conversion.submit' });
  const settled = await waitFor(
    actor,
    (s) => s.matches('success') || s.matches('failed') || s.matches('pending'),
    { timeout: 20_000 },
  );
  return { actor, settled, changed };
}

/** The wallet machine's balances and first activity page, once loaded. */
async function walletSnapshot(adapter: WalletAdapter) {
  const actor = createActor(walletLogic(adapter)).start();
  const ready = await waitFor(actor, (s) => s.matches('ready'), { timeout: 5000 });
  actor.stop();
  return ready.context;
}

describeServer('a conversion through the wallet adapter and machines', () => {
  let student: TestUser;
  beforeAll(async () => {
    student = await h.user();
    await h.grant(student.id, 1250);
  });

  it('reads the rule from the server, converts, follows the transaction and shows both balances', async () => {
    const adapter = walletOf(student);
    expect((await walletSnapshot(adapter)).balance).toEqual({ points: 1250, tokens: 0 });

    const { actor, settled, changed } = await convert(adapter, 1250, 250);
    expect(settled.context.info).toEqual({
      points_per_token: 10,
      min_points: 100,
      step: 10,
      token_name: 'AYAH',
    });
    expect(settled.value).toBe('success');
    expect(settled.context.transaction).toMatchObject({
      status: 'success',
      points: 250,
      tokens: 25,
    });
    // The transaction the machine holds is the server's, by its id.
    const { transaction } = await adapter.transaction(settled.context.transaction!.id);
    expect(transaction).toEqual(settled.context.transaction);
    expect(changed).toEqual(['changed']);
    actor.send({ type: 'conversion.close' });
    expect(actor.getSnapshot().value).toBe('closed');

    const after = await walletSnapshot(adapter);
    expect(after.balance).toEqual({ points: 1000, tokens: 25 });
    expect(after.activity[0]).toMatchObject({
      type: 'converted',
      pointsUsed: 250,
      tokensReceived: 25,
    });
  });

  it("the machine's rule and the server's agree: what the button refuses, the server refuses", async () => {
    const adapter = walletOf(student);
    const actor = createActor(conversionLogic(adapter)).start();
    actor.send({ type: 'conversion.open', balance: 1000 });
    await waitFor(actor, (s) => s.matches({ open: 'editing' }), { timeout: 5000 });
    for (const amount of [90, 105, 1010]) {
      actor.send({ type: 'amount.change', value: String(amount) });
      expect(actor.getSnapshot().can({ type: 'conversion.submit' }), String(amount)).toBe(false);
      await expect(adapter.convert({ points: amount })).rejects.toMatchObject({ status: 400 });
    }
    expect((await adapter.balance()).points).toBe(1000);
  });

  it('a conversion that fails keeps the points, and says so', async () => {
    const user = await h.user();
    await h.grant(user.id, 990);
    await h.failDistribution(990);
    h.expectError(/^\[points\] conversion \S+ failed; giving the points back/);
    const adapter = walletOf(user);
    const { settled } = await convert(adapter, 990, 990);
    expect(settled.value).toBe('failed');
    expect(settled.context.transaction).toMatchObject({ status: 'failed', points: 990 });
    const after = await walletSnapshot(adapter);
    expect(after.balance).toEqual({ points: 990, tokens: 0 });
  });
});
