import { describe, expect, it } from 'vitest';

import { clampPercent, progressTone } from '../../../src/lib/progress';

describe('progress', () => {
  it.each([
    [-5, 0],
    [0, 0],
    [50, 50],
    [100, 100],
    [150, 100],
    [Number.NaN, 0],
    [Infinity, 100],
    [-Infinity, 0],
  ])('clamps %d to %d', (value, expected) => {
    expect(clampPercent(value)).toBe(expected);
  });

  it.each([
    [0, 'low'],
    [24.99, 'low'],
    [25, 'mid'],
    [74.99, 'mid'],
    [75, 'high'],
    [100, 'high'],
    [250, 'high'],
  ])('colours %d%% %s', (percent, tone) => {
    expect(progressTone(percent)).toBe(tone);
  });
});
