import { describe, expect, it } from 'vitest';

import { GUEST_POINTS_KEY, guestWallet } from '../../../src/wallet/guest-wallet';

function memory() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
  };
}

const now = () => new Date('2025-03-14T09:00:00Z');

describe('guest wallet', () => {
  it('starts at 100 points with the welcome bonus and first meal entries', async () => {
    const wallet = guestWallet(memory(), now);
    expect(await wallet.balance()).toEqual({ points: 100, tokens: 0 });
    const page = await wallet.activity();
    expect(page.data.map((a) => [a.type, a.amount, a.description])).toEqual([
      ['earned', 10, 'First meal'],
      ['earned', 25, 'Welcome bonus'],
    ]);
  });

  it('earn adds, spend subtracts, and both are kept in storage', async () => {
    const storage = memory();
    const wallet = guestWallet(storage, now);
    wallet.earn(50, 'Quiz');
    wallet.spend(30, 'Sticker');
    expect(wallet.state().balance).toBe(120);
    expect(JSON.parse(storage.items.get(GUEST_POINTS_KEY)!).balance).toBe(120);
    expect((await guestWallet(storage, now).balance()).points).toBe(120);
  });

  it("refuses spending beyond the balance: 'Insufficient tokens!'", () => {
    const wallet = guestWallet(memory(), now);
    expect(() => wallet.spend(101, 'Too much')).toThrow('Insufficient tokens!');
    expect(wallet.state().balance).toBe(100);
  });

  it("convert subtracts; beyond the balance or zero: 'Invalid amount to convert!'", async () => {
    const wallet = guestWallet(memory(), now);
    const { transaction } = await wallet.convert({ points: 100 });
    expect(transaction).toMatchObject({ status: 'success', points: 100, tokens: 10 });
    expect(await wallet.balance()).toEqual({ points: 0, tokens: 10 });
    expect((await wallet.transaction(transaction.id)).transaction).toEqual(transaction);
    await expect(wallet.convert({ points: 10 })).rejects.toThrow('Invalid amount to convert!');
    expect(() => wallet.convertPoints(0)).toThrow('Invalid amount to convert!');
    const page = await wallet.activity();
    expect(page.data[0]).toMatchObject({ type: 'converted', pointsUsed: 100, tokensReceived: 10 });
  });

  it('starts over when storage holds garbage', async () => {
    const storage = memory();
    storage.setItem(GUEST_POINTS_KEY, '{not json');
    expect((await guestWallet(storage, now).balance()).points).toBe(100);
  });
});
