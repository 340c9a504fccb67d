/*
 * The goals in types: what the board's and the wizard's machines hold (context), hear (events) and tell
 * the page (emitted), and the wizard's suggestion cards. The wire shapes stay in `goals.adapter.ts`.
 */
import type { Subject } from '../lib/limits';
import type { Notice } from '../lib/notices';
import type {
  Celebration,
  Goal,
  GoalActivity,
  GoalProgressEntry,
  GoalType,
  LogProgressRequest,
} from './goals.adapter';

// The board (board.machine.ts).

export type GoalHistory = {
  entries: GoalProgressEntry[];
  page: number;
  total: number;
  hasMore: boolean;
};

export type BoardContext = {
  /** The current week's goals; empty when the list failed to load. */
  goals: Goal[];
  /** Recent Activity: the 5 newest pieces of progress. */
  activities: GoalActivity[];
  /** This Week: goals of the week at 100 %. */
  completedInWeek: number;
  /** Day Streak. */
  streak: number;
  /** The goal an open dialog is about (edit, delete, history, log progress). */
  target: Goal | null;
  history: GoalHistory;
  /** Milestones to celebrate, the one shown first. */
  celebrations: Celebration[];
  /** `goal_id:milestone` of every milestone queued so far: each, and any below it, is celebrated once. */
  celebrated: string[];
};

export type BoardEvent =
  | { type: 'goals.retry' }
  | { type: 'goals.refresh' }
  | { type: 'wizard.open' }
  | { type: 'wizard.close' }
  | { type: 'goal.created'; goal: Goal }
  | { type: 'goal.edit'; goalId: string }
  | { type: 'edit.save'; target: number }
  | { type: 'edit.cancel' }
  | { type: 'goal.delete'; goalId: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'goal.history'; goalId: string }
  | { type: 'history.page'; page: number }
  | { type: 'history.retry' }
  | { type: 'history.close' }
  | { type: 'goal.log'; goalId: string }
  | ({ type: 'progress.save' } & LogProgressRequest)
  | { type: 'progress.cancel' }
  | { type: 'celebration.dismiss' }
  /** Raised after every change: the stats, Recent Activity and celebrations are fetched again. */
  | { type: 'board.changed' };

export type BoardEmitted = Notice;

// The create wizard (wizard.machine.ts).

export type WizardContext = {
  subject: Subject | null;
  goalType: GoalType | null;
  /** The target as typed: checked on Next, so a half-typed number is never rewritten. */
  target: string;
  /** The custom-goal toggle: the full subject list instead of the suggestion cards. */
  custom: boolean;
  /** The server's refusal of the last create (e.g. the 3-subject limit), shown on the review step. */
  error: string | null;
};

export type WizardEvent =
  /** A suggestion card: picks its subject and jumps to step 2. */
  | { type: 'wizard.suggest'; subject: Subject }
  | { type: 'wizard.custom' }
  /** A subject from the full list (custom goal); Next goes on. */
  | { type: 'subject.select'; subject: Subject }
  /** Choosing a goal type jumps to step 3 with that type's default target. */
  | { type: 'type.select'; goalType: GoalType }
  | { type: 'target.change'; value: string }
  /** A quick pick (10/15/20/25, 30/45/60/90, 3/5/7/10). */
  | { type: 'target.pick'; value: number }
  | { type: 'wizard.next' }
  | { type: 'wizard.back' }
  | { type: 'wizard.create' }
  | { type: 'wizard.cancel' };

export type WizardEmitted =
  { type: 'goal.created'; goal: Goal; message: string } | { type: 'wizard.cancelled' };

/** A suggestion card of the wizard and the empty board: a subject, pitched at middle school. */
export type GoalSuggestion = {
  subject: Subject;
  title: string;
  description: string;
};
