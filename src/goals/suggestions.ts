import { subjectsByInterest } from '../lib/goals';
import type { Subject } from '../lib/limits';
import type { GoalSuggestion } from './goals.types';

const SUGGESTIONS: Readonly<Record<Subject, GoalSuggestion>> = {
  math: {
    subject: 'math',
    title: 'Practice math problems',
    description: 'Fractions, ratios and equations, a few problems at a time.',
  },
  science: {
    subject: 'science',
    title: 'Explore science',
    description: 'Cells, forces and the solar system, one topic after another.',
  },
  english: {
    subject: 'english',
    title: 'Read and write in English',
    description: 'Reading, grammar and writing, a little every day.',
  },
  history: {
    subject: 'history',
    title: 'Discover history',
    description: 'Ancient civilizations and the events that shaped the world.',
  },
};

/** How many suggestion cards show before the custom-goal toggle. */
export const SUGGESTION_COUNT = 3;

/** The suggestion cards, the student's interests first. */
export function suggestionsFor(interests: readonly Subject[] = []): GoalSuggestion[] {
  return subjectsByInterest(interests)
    .slice(0, SUGGESTION_COUNT)
    .map((subject) => SUGGESTIONS[subject]);
}
