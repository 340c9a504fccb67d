/**
 * `/api/v1/classes` (the teacher's view of a class) and `/api/v1/alerts` (safety alerts). Every route
 * checks the caller against the class on the server: a class the caller does not teach, and an alert
 * they may not see, are 404 — the same answer as one that does not exist. Roles come only from LTI
 * launches and portal assertions; no route here changes one.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';

import type { AuthEnv } from '../http/auth';
import { AppError } from '../http/errors';
import { isUuid } from '../http/ids';
import { BEARER, body, createRouter, errorResponses, json, TimeZoneHeaders } from '../http/openapi';
import { requestTimeZone } from '../http/timezone';
import type { AlertAction, AlertService } from './alerts';
import { ALERT_MESSAGES } from './alerts';
import {
  AlertDetail,
  AlertList,
  AlertListQuery,
  ClassDashboard,
  ClassList,
  FalsePositiveBody,
  ResolveBody,
  StudentChats,
} from './schemas';
import type { ClassService } from './service';
import { CLASS_MESSAGES } from './service';

/** A path id that is not a UUID names nothing: 404, like another class's id. */
function id(value: string, detail: string): string {
  if (!isUuid(value)) throw new AppError(404, detail);
  return value;
}

const ClassParams = z.object({ classId: z.string() });
const StudentParams = z.object({ classId: z.string(), studentId: z.string() });
const AlertParams = z.object({ alertId: z.string() });

export function classRoutes(
  auth: MiddlewareHandler<AuthEnv>,
  service: ClassService,
  alerts: AlertService,
) {
  const app = createRouter<AuthEnv>();
  const signedIn = { security: BEARER, middleware: auth };

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'The classes the caller teaches',
      description:
        'Classes where an LTI launch or a portal assertion made the caller an instructor or administrator.',
      ...signedIn,
      responses: { 200: json(ClassList, 'The classes'), ...errorResponses(401) },
    }),
    async (c) => {
      const user = c.var.auth.user;
      const [classes, contact] = await Promise.all([
        service.taught(user),
        alerts.isSchoolContact(user),
      ]);
      return c.json({ classes, safety_contact: contact }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{classId}/students',
      summary: "A class's dashboard: one row per student, this week's learning, no chat text",
      ...signedIn,
      request: { params: ClassParams, headers: TimeZoneHeaders },
      responses: { 200: json(ClassDashboard, 'The dashboard'), ...errorResponses(401, 404) },
    }),
    async (c) => {
      const classId = id(c.req.valid('param').classId, CLASS_MESSAGES.notFound);
      return c.json(await service.dashboard(c.var.auth.user, classId, requestTimeZone(c)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{classId}/export',
      summary: "A class's dashboard as CSV (no chat text)",
      ...signedIn,
      request: { params: ClassParams, headers: TimeZoneHeaders },
      responses: {
        200: { content: { 'text/csv': { schema: z.string() } }, description: 'The CSV' },
        ...errorResponses(401, 404),
      },
    }),
    async (c) => {
      const classId = id(c.req.valid('param').classId, CLASS_MESSAGES.notFound);
      const csv = await service.csv(c.var.auth.user, classId, requestTimeZone(c));
      return c.body(csv, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': 'attachment; filename="class.csv"',
        'Cache-Control': 'no-store',
      });
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{classId}/students/{studentId}/chats',
      summary: "A student's chats, where the school allows it",
      description: 'Only with AYAH_TEACHERS_READ_CHATS=1 (off by default: 403).',
      ...signedIn,
      request: { params: StudentParams },
      responses: { 200: json(StudentChats, 'The chats'), ...errorResponses(401, 403, 404) },
    }),
    async (c) => {
      const params = c.req.valid('param');
      const classId = id(params.classId, CLASS_MESSAGES.notFound);
      const studentId = id(params.studentId, CLASS_MESSAGES.studentNotFound);
      return c.json(await service.studentChats(c.var.auth.user, classId, studentId), 200);
    },
  );

  return app;
}

export function alertRoutes(auth: MiddlewareHandler<AuthEnv>, alerts: AlertService) {
  const app = createRouter<AuthEnv>();
  const signedIn = { security: BEARER, middleware: auth };

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: 'The safety alerts the caller may see, newest first',
      description:
        "A class's instructors see its alerts; the school's safety contacts see all. `unread`: not yet opened by the caller since its last flag.",
      ...signedIn,
      request: { query: AlertListQuery },
      responses: { 200: json(AlertList, 'The alerts'), ...errorResponses(401, 422) },
    }),
    async (c) => {
      const query = c.req.valid('query');
      if (query.class_id !== undefined && !isUuid(query.class_id))
        return c.json({ alerts: [], unread: 0 }, 200);
      return c.json(
        await alerts.list(c.var.auth.user, { classId: query.class_id, status: query.status }),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/unread',
      summary: 'How many alerts the caller has not opened',
      ...signedIn,
      responses: {
        200: json(z.object({ unread: z.number().int() }), 'The count'),
        ...errorResponses(401),
      },
    }),
    async (c) => c.json({ unread: await alerts.unreadCount(c.var.auth.user) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{alertId}',
      summary: 'One alert: the flagged messages, Ayah’s answers, its record and its mails',
      description: 'Opening it is recorded (who and when).',
      ...signedIn,
      request: { params: AlertParams },
      responses: { 200: json(AlertDetail, 'The alert'), ...errorResponses(401, 404) },
    }),
    async (c) => {
      const alertId = id(c.req.valid('param').alertId, ALERT_MESSAGES.notFound);
      return c.json(await alerts.detail(c.var.auth.user, alertId), 200);
    },
  );

  const actionRoute = <B extends object>(path: string, summary: string, request: B) =>
    createRoute({
      method: 'post',
      path: `/{alertId}/${path}`,
      summary,
      description: 'Recorded with who and when. An alert already resolved or marked: 409.',
      ...signedIn,
      request: { params: AlertParams, ...request },
      responses: {
        200: json(AlertDetail, 'The alert'),
        ...errorResponses(401, 404, 409, 415, 422),
      },
    });
  const act = (
    alertId: string,
    user: Parameters<AlertService['act']>[0],
    step: AlertAction,
    note: string | null,
  ) => alerts.act(user, id(alertId, ALERT_MESSAGES.notFound), step, note);

  app.openapi(actionRoute('acknowledge', 'Acknowledge an alert', {}), async (c) =>
    c.json(await act(c.req.valid('param').alertId, c.var.auth.user, 'acknowledge', null), 200),
  );
  app.openapi(
    actionRoute('resolve', 'Resolve an alert with a note', { body: body(ResolveBody) }),
    async (c) =>
      c.json(
        await act(
          c.req.valid('param').alertId,
          c.var.auth.user,
          'resolve',
          c.req.valid('json').note,
        ),
        200,
      ),
  );
  app.openapi(
    actionRoute('false-positive', 'Mark an alert as a false positive', {
      body: { required: false, content: { 'application/json': { schema: FalsePositiveBody } } },
    }),
    async (c) =>
      c.json(
        await act(
          c.req.valid('param').alertId,
          c.var.auth.user,
          'false_positive',
          c.req.valid('json').note || null,
        ),
        200,
      ),
  );

  return app;
}
