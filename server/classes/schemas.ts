/** The wire shapes of `/api/v1/classes` and `/api/v1/alerts` (zod, OpenAPI generated from them). */
import { z } from '@hono/zod-openapi';
import { ALERT_CATEGORIES } from 'ayah-coach/rules';

import { hasNoNul, NUL_MESSAGE } from '../http/text';

const Role = z.enum(['learner', 'instructor', 'administrator']);

export const ClassSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    source: z.enum(['lti', 'portal']),
    role: Role,
    students: z.number().int(),
  })
  .openapi('ClassSummary');

export const ClassList = z
  .object({
    classes: z.array(ClassSummary),
    /** Whether the caller is one of the school's safety contacts (sees every class's alerts). */
    safety_contact: z.boolean(),
  })
  .openapi('ClassList');

export const DashboardStudent = z
  .object({
    id: z.string(),
    name: z.string(),
    goals: z.array(
      z.object({
        id: z.string(),
        subject: z.string(),
        goal_type: z.string(),
        target_value: z.number().int(),
        progress: z.number().openapi({ description: 'Percent of the target, 0–100' }),
      }),
    ),
    streak: z.number().int(),
    completed_this_week: z.number().int(),
    questions_this_week: z.number().int(),
    last_active: z.string().nullable(),
    inactive_7_days: z.boolean(),
  })
  .openapi('DashboardStudent');

export const ClassDashboard = z
  .object({
    class: z.object({ id: z.string(), name: z.string(), role: Role }),
    students: z.array(DashboardStudent),
  })
  .openapi('ClassDashboard');

export const StudentChats = z
  .object({
    student: z.object({ id: z.string(), name: z.string() }),
    chats: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        messages: z.array(
          z.object({
            role: z.enum(['user', 'assistant']),
            content: z.string(),
            created_at: z.string(),
          }),
        ),
      }),
    ),
  })
  .openapi('StudentChats');

export const AlertStatusEnum = z.enum(['open', 'acknowledged', 'resolved', 'false_positive']);

export const AlertSummary = z
  .object({
    id: z.string(),
    class: z.object({ id: z.string(), name: z.string() }),
    student: z.object({ id: z.string().nullable(), name: z.string() }),
    category: z.enum(ALERT_CATEGORIES),
    categories: z.array(z.string()),
    severity: z.enum(['high', 'medium', 'low']),
    status: AlertStatusEnum,
    flags: z.number().int(),
    note: z.string().nullable(),
    created_at: z.string(),
    last_flag_at: z.string(),
    unread: z.boolean(),
  })
  .openapi('AlertSummary');

export const AlertList = z
  .object({ alerts: z.array(AlertSummary), unread: z.number().int() })
  .openapi('AlertList');

export const AlertDetail = AlertSummary.extend({
  messages: z.array(
    z.object({
      message: z.string(),
      answer: z.string(),
      categories: z.array(z.string()),
      created_at: z.string(),
    }),
  ),
  events: z.array(
    z.object({
      actor: z.string(),
      action: z.string(),
      note: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  deliveries: z.array(
    z.object({
      recipient: z.string(),
      status: z.enum(['pending', 'sent', 'failed']),
      attempts: z.number().int(),
      last_error: z.string().nullable(),
      sent_at: z.string().nullable(),
    }),
  ),
}).openapi('AlertDetail');

const Note = z.string().trim().max(2000).refine(hasNoNul, NUL_MESSAGE);

export const ResolveBody = z
  .strictObject({ note: Note.pipe(z.string().min(1, 'A note is required')) })
  .openapi('ResolveAlertRequest');

export const FalsePositiveBody = z
  .strictObject({ note: Note.optional() })
  .openapi('FalsePositiveRequest');

export const AlertListQuery = z.strictObject({
  class_id: z.string().optional(),
  status: AlertStatusEnum.optional(),
});
