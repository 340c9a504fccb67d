import { GOAL_TYPE_LABELS, GOAL_TYPE_UNITS, SUBJECT_LABELS } from '../lib/labels';
import type { GoalType, Subject } from '../lib/limits';

/** 'Math · Problems Solved': how a goal is named in labels and dialogs. */
export function goalName(goal: { subject: Subject; goal_type: GoalType }): string {
  return `${SUBJECT_LABELS[goal.subject]} · ${GOAL_TYPE_LABELS[goal.goal_type]}`;
}

/** '20 problems per week'. */
export function perWeek(goal: { goal_type: GoalType; target_value: number }): string {
  return `${goal.target_value} ${GOAL_TYPE_UNITS[goal.goal_type]} per week`;
}

const DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** 'Mar 4' in the reader's locale, from an ISO instant or a 'YYYY-MM-DD' day. */
export function shortDate(value: string): string {
  // A bare day is a calendar date, not UTC midnight: read it as local noon so no zone shifts it.
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00`) : new Date(value);
  return Number.isNaN(date.getTime()) ? value : DAY.format(date);
}
