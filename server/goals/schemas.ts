/** The wire shapes of `/api/v1/goal` (zod, OpenAPI generated from them). */
import { z } from '@hono/zod-openapi';
import { GOALS } from 'ayah-coach/rules';

import { pageOf, pageQuery } from '../http/paging';
import { hasNoNul, NUL_MESSAGE } from '../http/text';

const Target = z.number().int().min(GOALS.minTarget).max(GOALS.maxTarget);

export const CreateGoalBody = z
  .strictObject({
    subject: z.enum(GOALS.subjects),
    goal_type: z.enum(GOALS.goalTypes),
    target_value: Target,
  })
  .openapi('CreateGoalRequest');

export const UpdateGoalBody = z.strictObject({ target_value: Target }).openapi('UpdateGoalRequest');

export const ProgressBody = z
  .strictObject({
    value: z.number().int().min(1).max(GOALS.maxTarget).openapi({
      description: 'Problems solved, minutes studied or topics learned, as the goal counts',
    }),
    topic: z.string().trim().min(1).max(200).refine(hasNoNul, NUL_MESSAGE).optional(),
    minutes: z.number().int().min(0).max(1440).optional(),
  })
  .openapi('LogProgressRequest');

const Goal = z
  .object({
    _id: z.string(),
    subject: z.enum(GOALS.subjects),
    goal_type: z.enum(GOALS.goalTypes),
    target_value: z.number().int(),
    total_progress: z.number().openapi({ description: 'Percent of the target, 0–100' }),
    latest_progress: z.object({ value: z.number().int(), created_at: z.string() }).nullable(),
    created_at: z.string(),
  })
  .openapi('Goal');

export const GoalResponse = z.object({ goal: Goal }).openapi('GoalResponse');
export const GoalList = z.object({ goals: z.array(Goal) }).openapi('GoalList');
export const GoalIdParams = z.object({ id: z.string() });

export const ActivitiesQuery = pageQuery(GOALS.recentActivityLimit);

export const ActivityPage = pageOf(
  'GoalActivityPage',
  'data',
  z.object({
    goal: z.object({
      subject: z.enum(GOALS.subjects),
      goal_type: z.enum(GOALS.goalTypes),
      target_value: z.number().int(),
    }),
    topic: z.string().nullable(),
    value: z.number().int(),
    updated_at: z.string(),
  }),
);

export const CompletedCount = z.object({ count: z.number().int() });
export const Streak = z.object({ streak: z.number().int() });

export const Celebrations = z
  .array(
    z.object({
      goal_id: z.string(),
      milestone: z.union([z.literal(25), z.literal(50), z.literal(75), z.literal(100)]),
    }),
  )
  .openapi('Celebrations');

export const Deleted = z.object({ message: z.string() });

export const ProgressQuery = pageQuery(GOALS.progressPageSize);

export const ProgressPage = pageOf(
  'GoalProgressPage',
  'data',
  z.object({ total_value: z.number(), total_time: z.number(), date: z.string() }),
);
