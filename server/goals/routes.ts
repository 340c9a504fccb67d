/** `/api/v1/goal`: weekly learning goals, their progress, streak and celebrations (API.md). */
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';

import type { AuthEnv } from '../http/auth';
import { AppError } from '../http/errors';
import { isUuid } from '../http/ids';
import { BEARER, body, createRouter, errorResponses, json, TimeZoneHeaders } from '../http/openapi';
import { requestTimeZone } from '../http/timezone';
import {
  ActivitiesQuery,
  ActivityPage,
  Celebrations,
  CompletedCount,
  CreateGoalBody,
  Deleted,
  GoalIdParams,
  GoalList,
  GoalResponse,
  ProgressBody,
  ProgressPage,
  ProgressQuery,
  Streak,
  UpdateGoalBody,
} from './schemas';
import type { GoalsService } from './service';
import { GOAL_AWARDS_PER_WEEK, GOAL_MESSAGES } from './service';

/** Said on every goal write (OpenAPI): the award rules and the write limit. */
const WRITE_RULES =
  `A goal reaching 100 % earns +50 points, at most ${GOAL_AWARDS_PER_WEEK} times a week (Monday 00:00 UTC), ` +
  'counting awards taken back; falling under 100 % or deleting the goal takes its award back (never ' +
  'below a zero balance). Goal writes are rate-limited per student (429 with Retry-After).';

/** What the OpenAPI description says of every call that counts weeks or days. */
const WEEK_NOTE =
  'A week runs Monday 00:00 to Sunday 24:00, and a day midnight to midnight, in the caller’s X-Timezone (an IANA name; UTC when absent or unknown).';

/**
 * `onProgress`: told (never awaited) after a student's goals changed: the root hands it to LTI grades.
 */
export function goalRoutes(
  auth: MiddlewareHandler<AuthEnv>,
  service: GoalsService,
  onProgress: (userId: string) => void = () => {},
) {
  const changed = <T>(userId: string, result: T): T => {
    onProgress(userId);
    return result;
  };
  const app = createRouter<AuthEnv>();
  const signedIn = { security: BEARER, middleware: auth };
  const goalId = (id: string) => {
    if (!isUuid(id)) throw new AppError(404, GOAL_MESSAGES.notFound);
    return id;
  };

  app.openapi(
    createRoute({
      method: 'post',
      path: '/',
      summary: 'Create a goal for the current week',
      description: `${WEEK_NOTE} ${WRITE_RULES}`,
      ...signedIn,
      request: { body: body(CreateGoalBody), headers: TimeZoneHeaders },
      responses: {
        201: json(GoalResponse, 'Created'),
        ...errorResponses(400, 401, 415, 422, 429),
      },
    }),
    async (c) =>
      c.json(
        {
          goal: changed(
            c.var.auth.user.id,
            await service.create(c.var.auth.user.id, c.req.valid('json'), requestTimeZone(c)),
          ),
        },
        201,
      ),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: "The current week's goals",
      description: WEEK_NOTE,
      ...signedIn,
      request: { headers: TimeZoneHeaders },
      responses: { 200: json(GoalList, 'Goals'), ...errorResponses(401) },
    }),
    async (c) =>
      c.json({ goals: await service.list(c.var.auth.user.id, 'current', requestTimeZone(c)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/all',
      summary: "Every week's goals, newest week first",
      ...signedIn,
      responses: { 200: json(GoalList, 'Goals'), ...errorResponses(401) },
    }),
    async (c) => c.json({ goals: await service.list(c.var.auth.user.id, 'all') }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/activities',
      summary: 'Recent progress over all goals, newest first',
      ...signedIn,
      request: { query: ActivitiesQuery },
      responses: {
        200: json(ActivityPage, 'A page'),
        ...errorResponses(401, 422),
      },
    }),
    async (c) => c.json(await service.activities(c.var.auth.user.id, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/completed-in-week',
      summary: 'Goals of this week at 100 %',
      description: WEEK_NOTE,
      ...signedIn,
      request: { headers: TimeZoneHeaders },
      responses: {
        200: json(CompletedCount, 'The count'),
        ...errorResponses(401),
      },
    }),
    async (c) =>
      c.json({ count: await service.completedInWeek(c.var.auth.user.id, requestTimeZone(c)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/streak',
      summary: 'Consecutive days, up to today, with progress logged',
      description: WEEK_NOTE,
      ...signedIn,
      request: { headers: TimeZoneHeaders },
      responses: {
        200: json(Streak, 'The streak'),
        ...errorResponses(401),
      },
    }),
    async (c) =>
      c.json({ streak: await service.streak(c.var.auth.user.id, requestTimeZone(c)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/celebrations',
      summary: 'Milestones reached and not yet shown (reading them marks them shown)',
      ...signedIn,
      responses: {
        200: json(Celebrations, 'Milestones'),
        ...errorResponses(401),
      },
    }),
    async (c) => c.json(await service.celebrations(c.var.auth.user.id), 200),
  );

  for (const method of ['put', 'patch'] as const) {
    app.openapi(
      createRoute({
        method,
        path: '/{id}',
        summary: "Change a goal's target (not above 50 % progress)",
        description: WRITE_RULES,
        ...signedIn,
        request: { params: GoalIdParams, body: body(UpdateGoalBody) },
        responses: {
          200: json(GoalResponse, 'The goal'),
          ...errorResponses(400, 401, 404, 415, 422, 429),
        },
      }),
      async (c) => {
        const id = goalId(c.req.valid('param').id);
        const { target_value } = c.req.valid('json');
        const goal = await service.update(c.var.auth.user.id, id, target_value);
        return c.json({ goal: changed(c.var.auth.user.id, goal) }, 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/{id}',
      summary: 'Delete a goal (its award is taken back)',
      description: WRITE_RULES,
      ...signedIn,
      request: { params: GoalIdParams },
      responses: {
        200: json(Deleted, 'Deleted'),
        ...errorResponses(401, 404, 429),
      },
    }),
    async (c) => {
      await service.remove(c.var.auth.user.id, goalId(c.req.valid('param').id));
      onProgress(c.var.auth.user.id);
      return c.json({ message: GOAL_MESSAGES.deleted }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/{id}/progress',
      summary: 'Log progress on a goal',
      description: WRITE_RULES,
      ...signedIn,
      request: { params: GoalIdParams, body: body(ProgressBody) },
      responses: {
        201: json(GoalResponse, 'The goal'),
        ...errorResponses(401, 404, 415, 422, 429),
      },
    }),
    async (c) => {
      const id = goalId(c.req.valid('param').id);
      return c.json(
        {
          goal: changed(
            c.var.auth.user.id,
            await service.logProgress(c.var.auth.user.id, id, c.req.valid('json')),
          ),
        },
        201,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{id}/progress',
      summary: 'Progress by day, newest first',
      description: WEEK_NOTE,
      ...signedIn,
      request: { params: GoalIdParams, query: ProgressQuery, headers: TimeZoneHeaders },
      responses: {
        200: json(ProgressPage, 'A page'),
        ...errorResponses(401, 404, 422),
      },
    }),
    async (c) => {
      const id = goalId(c.req.valid('param').id);
      const page = c.req.valid('query');
      return c.json(await service.history(c.var.auth.user.id, id, page, requestTimeZone(c)), 200);
    },
  );

  return app;
}
