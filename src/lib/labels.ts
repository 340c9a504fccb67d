import type { GoalType, Subject } from './limits';

/** How each subject is written on screen. */
export const SUBJECT_LABELS: Readonly<Record<Subject, string>> = {
  math: 'Math',
  science: 'Science',
  history: 'History',
  english: 'English',
};

/** How each goal type is written on screen. */
export const GOAL_TYPE_LABELS: Readonly<Record<GoalType, string>> = {
  problems_solved: 'Problems Solved',
  study_time: 'Study Time',
  topics_learned: 'Topics Learned',
};

/** The unit a goal type's target counts, plural (targets are per week). */
export const GOAL_TYPE_UNITS: Readonly<Record<GoalType, string>> = {
  problems_solved: 'problems',
  study_time: 'minutes',
  topics_learned: 'topics',
};
