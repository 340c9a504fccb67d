import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';

import { deferred, fakeWalletAdapter, transaction } from '../../../fakes/wallet';
import { ApiError } from '../../../src/lib/http-errors';
import { conversionLogic, conversionMachine } from '../../../src/wallet/conversion.machine';
import {
  amountError,
  DEFAULT_CONVERSION_INFO,
  FOLLOW,
  followDelay,
  tokensToReceive,
} from '../../../src/wallet/conversion.setup';
import type { TransactionResponse } from '../../../src/wallet/wallet.adapter';

afterEach(() => vi.useRealTimers());

function start(adapter = fakeWalletAdapter()) {
  const actor = createActor(conversionLogic(adapter)).start();
  const changes: string[] = [];
  actor.on('balance.changed', () => changes.push('changed'));
  return { actor, adapter, changes };
}

const settle = (actor: ReturnType<typeof start>['actor'], value: string) =>
  waitFor(
    actor,
    (s) => s.matches((value.includes('.') ? { open: value.split('.')[1] } : value) as never),
    { timeout: 2000 },
  );

describe('conversion rules', () => {
  it('refuses below 100, off the step of 10, above the balance and non-integers', () => {
    expect(amountError('90', 500)).toBe('Convert at least 100 points');
    expect(amountError('105', 500)).toBe('Convert points in steps of 10');
    expect(amountError('510', 500)).toBe('You have only 500 points');
    expect(amountError('100.5', 500)).toBe('Enter a whole number of points');
    expect(amountError('', 500)).toBe('Enter a whole number of points');
    expect(amountError('100', 500)).toBeNull();
    expect(amountError('500', 500)).toBeNull();
  });

  it('shows floor(points / points_per_token) tokens, live', () => {
    expect(tokensToReceive('105', DEFAULT_CONVERSION_INFO)).toBe(10);
    expect(tokensToReceive('1250', DEFAULT_CONVERSION_INFO)).toBe(125);
    expect(tokensToReceive('abc', DEFAULT_CONVERSION_INFO)).toBe(0);
    expect(tokensToReceive('100', { ...DEFAULT_CONVERSION_INFO, points_per_token: 100 })).toBe(1);
  });

  it('backs off by doubling from 500 ms, capped at 8 s', () => {
    expect([0, 1, 2, 3, 4, 5].map(followDelay)).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });
});

describe('conversion machine', () => {
  it('fails loudly without an adapter', async () => {
    const actor = createActor(conversionMachine).start();
    actor.send({ type: 'conversion.open', balance: 500 });
    await waitFor(actor, (s) => s.matches({ open: 'editing' }));
    actor.send({ type: 'amount.change', value: '100' });
    actor.send({ type: 'conversion.submit' });
    await waitFor(actor, (s) => s.matches({ open: 'editing' }));
    expect(actor.getSnapshot().context.error).toMatch(/Could not convert/);
  });

  it('closed → open → converting → success, then closed with the balance reloaded', async () => {
    const convert = deferred<TransactionResponse>();
    const { actor, adapter, changes } = start(
      fakeWalletAdapter({ convert: () => convert.promise }),
    );
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send({ type: 'conversion.open', balance: 1250 });
    await settle(actor, 'open.editing');
    expect(actor.getSnapshot().context.info.token_name).toBe('AYAH');

    actor.send({ type: 'amount.change', value: '95' });
    expect(actor.getSnapshot().can({ type: 'conversion.submit' })).toBe(false);
    actor.send({ type: 'conversion.submit' });
    expect(actor.getSnapshot().matches({ open: 'editing' })).toBe(true);

    actor.send({ type: 'amount.change', value: '300' });
    actor.send({ type: 'conversion.submit' });
    expect(actor.getSnapshot().value).toBe('converting');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(adapter.calls.filter((c) => c.method === 'convert')).toEqual([
      { method: 'convert', args: [{ points: 300 }] },
    ]);
    convert.resolve({ transaction: transaction('success', 300) });
    await settle(actor, 'success');
    expect(changes).toEqual(['changed']);
    actor.send({ type: 'conversion.close' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(changes).toEqual(['changed', 'changed']);
  });

  it('follows a pending transaction with backoff until it settles', async () => {
    vi.useFakeTimers();
    const statuses = ['pending', 'pending', 'success'] as const;
    let look = 0;
    const { actor, adapter } = start(
      fakeWalletAdapter({
        convert: async () => ({ transaction: transaction('pending') }),
        transaction: async () => ({ transaction: transaction(statuses[look++]!) }),
      }),
    );
    actor.send({ type: 'conversion.open', balance: 500 });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'amount.change', value: '200' });
    actor.send({ type: 'conversion.submit' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ following: 'waiting' })).toBe(true);
    await vi.advanceTimersByTimeAsync(499);
    expect(adapter.calls.filter((c) => c.method === 'transaction')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(adapter.calls.filter((c) => c.method === 'transaction')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(adapter.calls.filter((c) => c.method === 'transaction')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(actor.getSnapshot().value).toBe('success');
    expect(adapter.calls.filter((c) => c.method === 'transaction')).toEqual([
      { method: 'transaction', args: ['tx-1'] },
      { method: 'transaction', args: ['tx-1'] },
      { method: 'transaction', args: ['tx-1'] },
    ]);
  });

  it('gives up following after the last look and shows pending', async () => {
    vi.useFakeTimers();
    const { actor, adapter } = start(
      fakeWalletAdapter({
        convert: async () => ({ transaction: transaction('pending') }),
        transaction: async () => ({ transaction: transaction('pending') }),
      }),
    );
    actor.send({ type: 'conversion.open', balance: 500 });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'amount.change', value: '200' });
    actor.send({ type: 'conversion.submit' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(actor.getSnapshot().value).toBe('pending');
    expect(adapter.calls.filter((c) => c.method === 'transaction')).toHaveLength(FOLLOW.maxChecks);
  });

  it('shows failed when the transaction fails (the server keeps the points)', async () => {
    const { actor } = start(
      fakeWalletAdapter({ convert: async () => ({ transaction: transaction('failed') }) }),
    );
    actor.send({ type: 'conversion.open', balance: 500 });
    await settle(actor, 'open.editing');
    actor.send({ type: 'amount.change', value: '200' });
    actor.send({ type: 'conversion.submit' });
    await settle(actor, 'failed');
  });

  it('returns to the form with the server refusal, saying the points were kept', async () => {
    const { actor } = start(
      fakeWalletAdapter({
        convert: async () => {
          throw new ApiError(400, 'Not enough points', 'Not enough points');
        },
      }),
    );
    actor.send({ type: 'conversion.open', balance: 500 });
    await settle(actor, 'open.editing');
    actor.send({ type: 'amount.change', value: '200' });
    actor.send({ type: 'conversion.submit' });
    await settle(actor, 'open.editing');
    expect(actor.getSnapshot().context.error).toBe(
      'Not enough points The conversion did not go through. Your points were not spent.',
    );
    actor.send({ type: 'amount.change', value: '300' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('keeps the default rule when /conversion-info fails', async () => {
    const { actor } = start(
      fakeWalletAdapter({
        conversionInfo: async () => {
          throw new ApiError(500, 'x');
        },
      }),
    );
    actor.send({ type: 'conversion.open', balance: 500 });
    await settle(actor, 'open.editing');
    expect(actor.getSnapshot().context.info).toEqual(DEFAULT_CONVERSION_INFO);
  });
});
