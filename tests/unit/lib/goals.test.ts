import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  canEditGoal,
  defaultTarget,
  formatStudyHours,
  goalEditError,
  goalPercent,
  goalTargetError,
  isValidTarget,
  milestonesReached,
  subjectLimitError,
  subjectLimitReached,
} from '../../../src/lib/goals';

const RANGE = 'Target must be a whole number from 1 to 999';
const MIN = 'Target must be a whole number of at least 1';

describe('goal targets', () => {
  it.each([
    [0, RANGE],
    [1, null],
    [999, null],
    [1000, RANGE],
    [-1, RANGE],
    [1.5, RANGE],
    [998.999, RANGE],
    [Number.NaN, RANGE],
    [Infinity, RANGE],
  ])('create: %d -> %j', (value, error) => {
    expect(goalTargetError(value)).toBe(error);
    expect(goalTargetError(value, 'create')).toBe(error);
    expect(isValidTarget(value)).toBe(error === null);
  });

  it.each([
    [0, MIN],
    [1, null],
    [1000, null],
    [100_000, null],
    [2.5, MIN],
    [Number.NaN, MIN],
  ])('edit: %d -> %j (minimum 1, no maximum)', (value, error) => {
    expect(goalTargetError(value, 'edit')).toBe(error);
    expect(isValidTarget(value, 'edit')).toBe(error === null);
  });
});

describe('editing lock', () => {
  it.each([
    [0, true],
    [49.99, true],
    [50, true],
    [50.01, false],
    [100, false],
    [Number.NaN, true],
  ])('at %d%% editable: %s', (progress, editable) => {
    expect(canEditGoal(progress)).toBe(editable);
    expect(goalEditError(progress)).toBe(
      editable ? null : 'Goals with more than 50% progress cannot be edited.',
    );
  });
});

describe('goalPercent', () => {
  it('is progress over target, capped at 100', () => {
    expect(goalPercent(5, 10)).toBe(50);
    expect(goalPercent(0, 10)).toBe(0);
    expect(goalPercent(30, 10)).toBe(100);
    expect(goalPercent(0, 0)).toBe(0);
    expect(goalPercent(3, 0)).toBe(100);
  });

  it('agrees with the edit lock at the 50 % boundary', () => {
    expect(canEditGoal(goalPercent(5, 10))).toBe(true);
    expect(canEditGoal(goalPercent(5001, 10_000))).toBe(false);
  });
});

describe('subject limit', () => {
  const goals = (...subjects: string[]) => subjects.map((subject) => ({ subject }));

  it('allows up to 3 distinct subjects', () => {
    expect(subjectLimitReached(goals(), 'math')).toBe(false);
    expect(subjectLimitReached(goals('math', 'science'), 'history')).toBe(false);
    expect(subjectLimitReached(goals('math', 'science', 'history'), 'english')).toBe(true);
  });

  it('does not count another goal in a subject already in use', () => {
    expect(subjectLimitReached(goals('math', 'science', 'history'), 'math')).toBe(false);
    expect(subjectLimitReached(goals('math', 'math', 'math', 'math'), 'science')).toBe(false);
    expect(subjectLimitReached(goals('math', 'math', 'science', 'history'), 'english')).toBe(true);
  });

  it("says 'You can only create a maximum of 3 courses at a time.'", () => {
    expect(subjectLimitError(goals('math', 'science', 'history'), 'english')).toBe(
      'You can only create a maximum of 3 courses at a time.',
    );
    expect(subjectLimitError(goals('math'), 'english')).toBeNull();
  });
});

describe('formatStudyHours', () => {
  it.each([
    [0, '0.00'],
    [1, '0.02'],
    [30, '0.50'],
    [60, '1.00'],
    [90, '1.50'],
    [100, '1.67'],
    [-10, '0.00'],
    [Number.NaN, '0.00'],
  ])('%d minutes -> %s hours', (minutes, hours) => {
    expect(formatStudyHours(minutes)).toBe(hours);
  });
});

describe('defaultTarget', () => {
  it('pre-fills 10 problems, 30 minutes, 3 topics', () => {
    expect(defaultTarget('problems_solved')).toBe(10);
    expect(defaultTarget('study_time')).toBe(30);
    expect(defaultTarget('topics_learned')).toBe(3);
  });
});

describe('milestonesReached', () => {
  it.each([
    [0, 24, []],
    [0, 25, [25]],
    [24, 26, [25]],
    [25, 49, []],
    [0, 100, [25, 50, 75, 100]],
    [60, 80, [75]],
    [99, 100, [100]],
    [100, 120, []],
    [80, 20, []],
    [-10, 30, [25]],
  ])('from %d%% to %d%% -> %j', (previous, next, expected) => {
    expect(milestonesReached(previous, next)).toEqual(expected);
  });

  it('reaches each milestone once along any increasing path', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 120 }), { maxLength: 20 }), (steps) => {
        const path = [0, ...steps.sort((a, b) => a - b)];
        const reached = path.slice(1).flatMap((p, k) => milestonesReached(path[k]!, p));
        const top = Math.min(100, path.at(-1)!);
        expect(reached).toEqual([25, 50, 75, 100].filter((m) => m <= top));
      }),
    );
  });
});
