import type { GoalType, Subject } from '../lib/limits';
import type { CallOptions, MessageResponse, Paged, PageQuery } from '../wire';

export type { GoalType, Subject };

/** A weekly goal. `total_progress` is a percentage, 0–100. */
export type Goal = {
  _id: string;
  subject: Subject;
  goal_type: GoalType;
  target_value: number;
  total_progress: number;
  latest_progress: { value: number; created_at: string } | null;
  created_at: string;
};

/** POST /goal: target 1–999; at most 3 distinct subjects. */
export type CreateGoalRequest = {
  subject: Subject;
  goal_type: GoalType;
  target_value: number;
};

/** PUT /goal/{id}: goals over 50 % progress cannot be edited. */
export type UpdateGoalRequest = {
  target_value: number;
};

/** POST /goal/{id}/progress: problems solved, minutes studied or topics learned. */
export type LogProgressRequest = {
  value: number;
  topic?: string;
  minutes?: number;
};

/** Answers that carry one goal. */
export type GoalResponse = {
  goal: Goal;
};

/** Answers that carry a list of goals. */
export type GoalListResponse = {
  goals: Goal[];
};

/** One day of progress on a goal. */
export type GoalProgressEntry = {
  total_value: number;
  total_time: number;
  date: string;
};

/** One logged piece of progress, newest first. */
export type GoalActivity = {
  goal: { subject: Subject; goal_type: GoalType; target_value: number };
  topic: string | null;
  value: number;
  updated_at: string;
};

/** A milestone reached and not yet shown. */
export type Celebration = {
  goal_id: string;
  milestone: 25 | 50 | 75 | 100;
};

/** Weekly learning goals and their progress: `/api/v1/goal`. */
export interface GoalsAdapter {
  /** Creates a goal for the current week. */
  create(body: CreateGoalRequest, options?: CallOptions): Promise<GoalResponse>;
  /** The current week's goals. */
  listCurrent(options?: CallOptions): Promise<GoalListResponse>;
  /** Every week's goals. */
  listAll(options?: CallOptions): Promise<GoalListResponse>;
  /** Changes a goal's target (sent as PUT). */
  update(id: string, body: UpdateGoalRequest, options?: CallOptions): Promise<GoalResponse>;
  /** Deletes a goal. */
  remove(id: string, options?: CallOptions): Promise<MessageResponse>;
  /** Logs progress on a goal and answers with the goal. */
  logProgress(id: string, body: LogProgressRequest, options?: CallOptions): Promise<GoalResponse>;
  /** One row per day; `limit` 4 and `page` 1 unless given. */
  progressHistory(
    id: string,
    query?: PageQuery,
    options?: CallOptions,
  ): Promise<Paged<'data', GoalProgressEntry>>;
  /** Recent progress over all goals; `limit` 5 and `page` 1 unless given. */
  activities(query?: PageQuery, options?: CallOptions): Promise<Paged<'data', GoalActivity>>;
  /** Goals completed this week. */
  completedInWeek(options?: CallOptions): Promise<{ count: number }>;
  /** Consecutive days, up to today, with any progress. */
  streak(options?: CallOptions): Promise<{ streak: number }>;
  /** Milestones not yet shown; reading them marks them shown. */
  celebrations(options?: CallOptions): Promise<Celebration[]>;
}
