import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  canConvert,
  conversionError,
  initialGuestPoints,
  pointsReducer,
  spendError,
  tokensFor,
  walletConversionError,
} from '../../../src/lib/points';

const AT = '2025-01-01T00:00:00.000Z';

describe('tokensFor', () => {
  it.each([
    [0, 0],
    [9, 0],
    [10, 1],
    [99, 9],
    [100, 10],
    [105, 10],
    [110, 11],
    [1250, 125],
    [-10, 0],
    [Number.NaN, 0],
    [Infinity, 0],
  ])('gives %d points -> %d tokens (10 points = 1 token, rounded down)', (points, tokens) => {
    expect(tokensFor(points)).toBe(tokens);
  });

  it('is floor(points / 10) for any non-negative integer', () => {
    fc.assert(
      fc.property(fc.nat(), (points) => {
        expect(tokensFor(points)).toBe(Math.floor(points / 10));
      }),
    );
  });
});

describe('conversionError / canConvert', () => {
  it.each([
    [90, 1000, 'Convert at least 100 points'],
    [99, 1000, 'Convert at least 100 points'],
    [100, 1000, null],
    [105, 1000, 'Convert points in steps of 10'],
    [110, 1000, null],
    [1000, 1000, null],
    [1010, 1000, 'You have only 1000 points'],
    [100, 99, 'You have only 99 points'],
    [100.5, 1000, 'Enter a whole number of points'],
    [Number.NaN, 1000, 'Enter a whole number of points'],
    [0, 1000, 'Convert at least 100 points'],
    [-100, 1000, 'Convert at least 100 points'],
  ])('%d of %d points -> %j', (points, balance, error) => {
    expect(conversionError(points, balance)).toBe(error);
    expect(canConvert(points, balance)).toBe(error === null);
  });

  it('accepts exactly the multiples of 10 from 100 up to the balance', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -50, max: 3000 }),
        fc.integer({ min: 0, max: 3000 }),
        (p, b) => {
          expect(canConvert(p, b)).toBe(p >= 100 && p <= b && p % 10 === 0);
        },
      ),
    );
  });
});

describe('wallet screen rules', () => {
  it("refuses an amount <= 0 or above the balance: 'Invalid amount to convert!'", () => {
    expect(walletConversionError(0, 100)).toBe('Invalid amount to convert!');
    expect(walletConversionError(-1, 100)).toBe('Invalid amount to convert!');
    expect(walletConversionError(101, 100)).toBe('Invalid amount to convert!');
    expect(walletConversionError(Number.NaN, 100)).toBe('Invalid amount to convert!');
    expect(walletConversionError(1, 100)).toBeNull();
    expect(walletConversionError(100, 100)).toBeNull();
  });

  it("refuses spending beyond the balance: 'Insufficient tokens!'", () => {
    expect(spendError(101, 100)).toBe('Insufficient tokens!');
    expect(spendError(100, 100)).toBeNull();
  });
});

describe('guest points', () => {
  it('starts with 100 points and the two sample entries', () => {
    expect(initialGuestPoints(AT)).toEqual({
      balance: 100,
      history: [
        { points: 25, activity: 'Welcome bonus', timestamp: AT, type: 'earned' },
        { points: 10, activity: 'First meal', timestamp: AT, type: 'earned' },
      ],
      error: null,
    });
  });

  const start = initialGuestPoints(AT);

  it('earn adds and records', () => {
    const next = pointsReducer(start, { type: 'earn', points: 50, activity: 'Goal', at: AT });
    expect(next.balance).toBe(150);
    expect(next.history.at(-1)).toEqual({
      points: 50,
      activity: 'Goal',
      timestamp: AT,
      type: 'earned',
    });
  });

  it('spend subtracts, down to exactly zero', () => {
    const next = pointsReducer(start, { type: 'spend', points: 100, activity: 'Shop', at: AT });
    expect(next).toMatchObject({ balance: 0, error: null });
    expect(next.history.at(-1)?.type).toBe('spent');
  });

  it("spending beyond the balance changes nothing and errors 'Insufficient tokens!'", () => {
    const next = pointsReducer(start, { type: 'spend', points: 101, activity: 'Shop', at: AT });
    expect(next).toEqual({ ...start, error: 'Insufficient tokens!' });
  });

  it('convert subtracts and records a conversion', () => {
    const next = pointsReducer(start, {
      type: 'convert',
      points: 100,
      activity: 'To AYAH',
      at: AT,
    });
    expect(next.balance).toBe(0);
    expect(next.history.at(-1)?.type).toBe('converted');
  });

  it("refuses converting 0 or more than the balance: 'Invalid amount to convert!'", () => {
    for (const points of [0, -5, 101]) {
      const next = pointsReducer(start, { type: 'convert', points, activity: 'x', at: AT });
      expect(next).toEqual({ ...start, error: 'Invalid amount to convert!' });
    }
  });

  it('ignores non-positive earn and spend, and a good action clears the last error', () => {
    expect(pointsReducer(start, { type: 'earn', points: 0, activity: 'x', at: AT })).toBe(start);
    expect(pointsReducer(start, { type: 'spend', points: -3, activity: 'x', at: AT })).toBe(start);
    const failed = pointsReducer(start, { type: 'spend', points: 500, activity: 'x', at: AT });
    expect(
      pointsReducer(failed, { type: 'earn', points: 0, activity: 'x', at: AT }).error,
    ).toBeNull();
    expect(
      pointsReducer(failed, { type: 'earn', points: 1, activity: 'x', at: AT }).error,
    ).toBeNull();
  });

  it('never goes negative and keeps balance = start + earned - spent - converted', () => {
    const action = fc.record({
      type: fc.constantFrom('earn' as const, 'spend' as const, 'convert' as const),
      points: fc.integer({ min: -20, max: 300 }),
      activity: fc.constant('a'),
      at: fc.constant(AT),
    });
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        const end = actions.reduce(pointsReducer, start);
        expect(end.balance).toBeGreaterThanOrEqual(0);
        const net = end.history
          .slice(2)
          .reduce((sum, e) => sum + (e.type === 'earned' ? e.points : -e.points), 0);
        expect(end.balance).toBe(100 + net);
      }),
    );
  });
});
