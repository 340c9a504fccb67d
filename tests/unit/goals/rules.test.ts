import { describe, expect, it } from 'vitest';

import { suggestionsFor } from '../../../src/goals/suggestions';
import {
  averageProgress,
  progressEntryError,
  recommendedRange,
  subjectsByInterest,
} from '../../../src/lib/goals';
import { celebrationMessage } from '../../../src/lib/messages';

describe('goal rules of the board and the wizard', () => {
  it('averages progress, capped, rounded, 0 without goals', () => {
    expect(averageProgress([])).toBe(0);
    expect(
      averageProgress([{ total_progress: 24 }, { total_progress: 75 }, { total_progress: 100 }]),
    ).toBe(66);
    expect(averageProgress([{ total_progress: 150 }, { total_progress: 0 }])).toBe(50);
  });

  it('names the recommended range of each type', () => {
    expect(recommendedRange('problems_solved')).toBe('Recommended: 10–25 problems per week');
    expect(recommendedRange('study_time')).toBe('Recommended: 30–60 minutes per week');
    expect(recommendedRange('topics_learned')).toBe('Recommended: 3–7 topics per week');
  });

  it('puts the interests first, each subject once', () => {
    expect(subjectsByInterest()).toEqual(['math', 'science', 'history', 'english']);
    expect(subjectsByInterest(['english', 'history', 'english'])).toEqual([
      'history',
      'english',
      'math',
      'science',
    ]);
    expect(suggestionsFor(['english']).map((s) => s.subject)).toEqual([
      'english',
      'math',
      'science',
    ]);
  });

  it('checks a progress entry as the server does', () => {
    expect(progressEntryError({ value: 1 })).toBeNull();
    expect(progressEntryError({ value: 999, minutes: 1440, topic: 'Ratios' })).toBeNull();
    expect(progressEntryError({ value: 0 })).toBe('Enter a whole number from 1 to 999');
    expect(progressEntryError({ value: 1.5 })).toBe('Enter a whole number from 1 to 999');
    expect(progressEntryError({ value: 1000 })).toBe('Enter a whole number from 1 to 999');
    expect(progressEntryError({ value: 1, minutes: -1 })).toBe(
      'Minutes must be a whole number from 0 to 1440',
    );
    expect(progressEntryError({ value: 1, topic: 'x'.repeat(201) })).toBe(
      'A topic can be up to 200 characters',
    );
  });

  it('words each milestone', () => {
    expect(celebrationMessage(25, 'math')).toBe('Great start! 25% of your Math goal is done.');
    expect(celebrationMessage(50)).toBe('Halfway there! 50% of your goal is done.');
    expect(celebrationMessage(75, 'science')).toBe(
      'Almost there! 75% of your Science goal is done.',
    );
    // Issue 25 item 1: the number is the goal's own percent, as its card shows it.
    expect(celebrationMessage(25, 'math', 33)).toBe('Great start! 33% of your Math goal is done.');
    expect(celebrationMessage(50, 'math', 66.7)).toBe(
      'Halfway there! 67% of your Math goal is done.',
    );
    expect(celebrationMessage(100, 'english')).toBe(
      'Goal complete! You finished your English goal this week.',
    );
  });
});
