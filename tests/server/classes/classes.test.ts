/**
 * Classes, the teacher's view and safety alerts over real HTTP, on PGlite and PostgreSQL (issue 24).
 * Students and teachers enter classes through a portal's signed assertion (the token exchange, its
 * JWKS served by the test) or through the `joinClass` port an LTI launch calls; a self-harm message of
 * a student in "Maths 7B" reaches the class's instructor and the school's safety contact by mail
 * (without the text) and in /alerts; a teacher of another class sees nothing of it.
 */
import { randomUUID } from 'node:crypto';

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';

import { JWT_TOKEN_TYPE } from '../../../server/auth/portal/service';
import { createClassService } from '../../../server/classes/service';
import { createGoalsService } from '../../../server/goals/service';
import { SAFE_ANSWERS } from '../../../server/llm/safety';
import { createPointsLedger } from '../../../server/points/ledger';
import { TRUSTED_ADULT_NOTICE } from '../../../src/lib/safety';
import { FakePortal } from '../fake-portal';
import type { TestUser } from '../harness';
import { describeServer, isFastApiError, useTestServer } from '../harness';
import { insertSignedInUser } from '../seed-user';

const portal = new FakePortal('RS256');
let issuers = '';
const contactEmail = `lead-${randomUUID().slice(0, 8)}@school.example`;

beforeAll(async () => {
  await portal.start();
  issuers = JSON.stringify([await portal.trusted('jwks')]);
});
afterAll(() => portal.close());

const h = useTestServer({
  env: () => ({ AYAH_TRUSTED_ISSUERS: issuers, AYAH_SAFETY_CONTACTS: contactEmail }),
});

const SELF_HARM = 'I want to kill myself, nothing matters';

interface Member {
  token: string;
  id: string;
}

/** Signs a portal user in with class claims (the portal's own key), as the portal's backend would. */
async function viaPortal(
  sub: string,
  claims: Record<string, unknown>,
  name = 'Noor',
): Promise<Member> {
  const reply = await h.post('/api/v1/auth/token-exchange', {
    subject_token: await portal.assertion(sub, { claims: { name, ...claims } }),
    subject_token_type: JWT_TOKEN_TYPE,
  });
  expect(reply.status, reply.text).toBe(200);
  return { token: reply.body.access_token, id: reply.body.user.id };
}

/** The port an LTI launch calls (issue 23), on this server's database. */
const classPort = () =>
  createClassService(
    { db: h.database.db, config: h.config, mailer: null!, logger: h.logger, now: h.now },
    createGoalsService(
      { db: h.database.db, config: h.config, mailer: null!, logger: h.logger, now: h.now },
      createPointsLedger(),
    ),
  );

/** A teacher with an email address (mail goes to them), placed as an LTI launch places them. */
async function teacher(classKey: string, className: string, name = 'Ms Rivera') {
  const user = await h.user(name);
  const { classId } = await classPort().joinClass({
    userId: user.id,
    source: 'lti',
    externalKey: classKey,
    name: className,
    role: 'instructor',
  });
  return { ...user, classId };
}

async function learner(classKey: string, className: string, name = 'Sam') {
  const user = await h.user(name);
  const { classId } = await classPort().joinClass({
    userId: user.id,
    source: 'lti',
    externalKey: classKey,
    name: className,
    role: 'learner',
  });
  return { ...user, classId };
}

const say = (content: string, sessionId?: string) => ({
  messages: [{ role: 'user', content }],
  ...(sessionId ? { sessionId } : {}),
});

const key = () => `course-${randomUUID().slice(0, 8)}`;

describeServer('classes and safety alerts', () => {
  let contact: TestUser;
  beforeAll(async () => {
    contact = await insertSignedInUser(
      h.database,
      h.config.jwtSecret,
      { email: contactEmail, displayName: 'Mr Okafor (safeguarding lead)' },
      { tokenSeconds: 3600 },
    );
  });

  it('places portal users in a class by the assertion; a later assertion changes the role', async () => {
    const classKey = key();
    const claims = { class_id: classKey, class_name: 'Maths 7B' };
    const noor = await viaPortal(`s-${randomUUID()}`, { ...claims, roles: ['Learner'] });
    const sub = `t-${randomUUID()}`;
    const rivera = await viaPortal(sub, {
      ...claims,
      roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor'],
    });
    const listed = await h.as(rivera.token).get('/api/v1/classes');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.classes).toEqual([
      expect.objectContaining({ name: 'Maths 7B', role: 'instructor', students: 1 }),
    ]);
    const classId = listed.body.classes[0].id;
    expect((await h.as(noor.token).get('/api/v1/classes')).body.classes).toEqual([]);
    expect((await h.as(noor.token).get(`/api/v1/classes/${classId}/students`)).status).toBe(404);

    // Same class, same user, now a learner: the role follows the latest assertion.
    const again = await viaPortal(sub, { ...claims, roles: 'Learner' });
    expect(again.id).toBe(rivera.id);
    expect((await h.as(again.token).get('/api/v1/classes')).body.classes).toEqual([]);
  });

  it('joinClass is idempotent: one class per (source, key), one membership per user', async () => {
    const classKey = key();
    const port = classPort();
    const user = await h.user('Ana');
    const first = await port.joinClass({
      userId: user.id,
      source: 'lti',
      externalKey: classKey,
      name: 'Science 8',
      role: 'learner',
    });
    const second = await port.joinClass({
      userId: user.id,
      source: 'lti',
      externalKey: classKey,
      name: 'Science 8A',
      role: 'instructor',
    });
    expect(second.classId).toBe(first.classId);
    const rows = await h.sql(
      sql`select role from class_members where class_id = ${first.classId} and user_id = ${user.id}`,
    );
    expect(rows).toEqual([{ role: 'instructor' }]);
    const listed = await h.as(user).get('/api/v1/classes');
    expect(listed.body.classes[0].name).toBe('Science 8A');
    // The portal's class of the same key is another class: keyed by source too.
    const other = await port.joinClass({
      userId: user.id,
      source: 'portal',
      externalKey: classKey,
      name: 'Portal class',
      role: 'learner',
    });
    expect(other.classId).not.toBe(first.classId);
  });

  it('a student cannot make themselves an instructor by any body or header', async () => {
    const sam = await learner(key(), 'History 9');
    const api = h.as(sam);
    const forged = {
      'x-role': 'instructor',
      'x-lti-role': 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
      'x-ayah-role': 'administrator',
    };
    const asForged = (method: string, path: string, body?: unknown) =>
      h.request(method, path, body, { token: sam.token, headers: forged });
    expect((await asForged('GET', `/api/v1/classes/${sam.classId}/students`)).status).toBe(404);
    expect((await asForged('GET', `/api/v1/classes/${sam.classId}/export`)).status).toBe(404);
    expect((await asForged('GET', '/api/v1/classes')).body.classes).toEqual([]);
    for (const [method, path] of [
      ['POST', '/api/v1/classes'],
      ['POST', `/api/v1/classes/${sam.classId}/join`],
      ['PUT', `/api/v1/classes/${sam.classId}/members/${sam.id}`],
      ['PATCH', `/api/v1/classes/${sam.classId}`],
    ] as const) {
      const reply = await asForged(method, path, { role: 'instructor', user_id: sam.id });
      expect([404, 405], `${method} ${path}`).toContain(reply.status);
      expect(isFastApiError(reply.body)).toBe(true);
    }
    const profile = await api.put('/api/v1/auth/profile', {
      display_name: 'Sam',
      role: 'instructor',
    });
    expect(profile.status).toBe(422);
    // The token exchange takes only its own fields: a role beside the assertion is refused.
    const exchange = await h.post('/api/v1/auth/token-exchange', {
      subject_token: await portal.assertion(`x-${randomUUID()}`, { claims: { class_id: 'k' } }),
      subject_token_type: JWT_TOKEN_TYPE,
      roles: ['Instructor'],
    });
    expect(exchange.status).toBe(422);
    const rows = await h.sql(sql`select role from class_members where user_id = ${sam.id}`);
    expect(rows).toEqual([{ role: 'learner' }]);
  });

  it('a self-harm message in "Maths 7B" reaches the instructor and the safety contact, never the text', async () => {
    const classKey = key();
    const rivera = await teacher(classKey, 'Maths 7B');
    const sam = await learner(classKey, 'Maths 7B', 'Sam Patel');
    const api = h.as(sam);

    const first = await api.post('/api/v1/chat/send', say(SELF_HARM));
    expect(first.status, first.text).toBe(200);
    expect(first.body.response).toContain(SAFE_ANSWERS.self_harm);
    expect(first.body.response).toContain(TRUSTED_ADULT_NOTICE);

    const toTeacher = await h.mailTo(rivera.email, /safety alert/i);
    const toContact = await h.mailTo(contactEmail, /safety alert/i);
    for (const mail of [toTeacher, toContact]) {
      expect(mail.subject).toBe('Ayah safety alert: Self-harm in Maths 7B');
      expect(mail.text).toContain('Sam Patel');
      expect(mail.text).toContain('Category: Self-harm');
      expect(mail.link).toMatch(/^http:\/\/app\.test\/teach\?class=[0-9a-f-]+&alert=[0-9a-f-]+$/);
      expect(mail.text).not.toContain('kill');
      expect(mail.html).not.toContain('kill');
    }

    // A second flag in the same conversation within 10 minutes: the same alert, no second mail.
    h.advanceClock(5 * 60_000);
    onTestFinished(() => h.resetClock());
    const second = await api.post(
      '/api/v1/chat/send',
      say('I still want to die', first.body.sessionId),
    );
    expect(second.status).toBe(200);
    const list = await h.as(rivera).get('/api/v1/alerts');
    expect(list.status, list.text).toBe(200);
    expect(list.body.alerts).toHaveLength(1);
    const [alert] = list.body.alerts;
    expect(alert).toMatchObject({
      class: { id: rivera.classId, name: 'Maths 7B' },
      student: { id: sam.id, name: 'Sam Patel' },
      category: 'self_harm',
      severity: 'high',
      status: 'open',
      flags: 2,
      unread: true,
    });
    expect(list.body.unread).toBe(1);
    expect((await h.as(rivera).get('/api/v1/alerts/unread')).body.unread).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(h.mailsTo(rivera.email).filter((m) => /safety alert/i.test(m.subject))).toHaveLength(1);
    expect(h.mailsTo(contactEmail).filter((m) => m.link?.includes(alert.id))).toHaveLength(1);

    // The detail has the message and Ayah's answer; opening it is recorded and reads it.
    const detail = await h.as(rivera).get(`/api/v1/alerts/${alert.id}`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.messages.map((m: { message: string }) => m.message)).toEqual([
      SELF_HARM,
      'I still want to die',
    ]);
    expect(detail.body.messages[0].answer).toContain(TRUSTED_ADULT_NOTICE);
    expect(detail.body.deliveries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ recipient: rivera.email, status: 'sent', attempts: 1 }),
        expect.objectContaining({ recipient: contactEmail, status: 'sent' }),
      ]),
    );
    expect((await h.as(rivera).get('/api/v1/alerts/unread')).body.unread).toBe(0);
    // The safety contact sees it too (the school's alerts), still unread for them.
    const contactList = await h.as(contact).get(`/api/v1/alerts?class_id=${rivera.classId}`);
    expect(contactList.body.alerts).toEqual([
      expect.objectContaining({ id: alert.id, unread: true }),
    ]);

    const ack = await h.as(rivera).post(`/api/v1/alerts/${alert.id}/acknowledge`);
    expect(ack.status, ack.text).toBe(200);
    expect(ack.body.status).toBe('acknowledged');
    expect((await h.as(rivera).post(`/api/v1/alerts/${alert.id}/resolve`, {})).status).toBe(422);
    const resolved = await h
      .as(contact)
      .post(`/api/v1/alerts/${alert.id}/resolve`, { note: 'Spoke with Sam and the counselor.' });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body).toMatchObject({
      status: 'resolved',
      note: 'Spoke with Sam and the counselor.',
    });
    const actions = resolved.body.events.map((e: { actor: string; action: string }) => [
      e.actor,
      e.action,
    ]);
    expect(actions).toEqual([
      ['Ayah', 'created'],
      ['Ayah', 'flagged_again'],
      ['Ms Rivera', 'viewed'],
      ['Ms Rivera', 'acknowledged'],
      ['Mr Okafor (safeguarding lead)', 'resolved'],
    ]);
    const twice = await h.as(rivera).post(`/api/v1/alerts/${alert.id}/false-positive`, {});
    expect(twice.status).toBe(409);
    expect(isFastApiError(twice.body)).toBe(true);
  });

  it('a teacher of another class gets 404 for every route of this class and its alerts', async () => {
    const classA = key();
    const riveraA = await teacher(classA, 'Maths 7B');
    const sam = await learner(classA, 'Maths 7B');
    const otherB = await teacher(key(), 'Maths 7C', 'Mr Chen');
    await learner(key(), 'Maths 7C');
    await h.as(sam).post('/api/v1/chat/send', say(SELF_HARM));
    const [alert] = (await h.as(riveraA).get('/api/v1/alerts')).body.alerts;
    expect(alert).toBeDefined();

    const b = h.as(otherB);
    const refused = [
      await b.get(`/api/v1/classes/${riveraA.classId}/students`),
      await b.get(`/api/v1/classes/${riveraA.classId}/export`),
      await b.get(`/api/v1/classes/${riveraA.classId}/students/${sam.id}/chats`),
      await b.get(`/api/v1/alerts/${alert.id}`),
      await b.post(`/api/v1/alerts/${alert.id}/acknowledge`),
      await b.post(`/api/v1/alerts/${alert.id}/resolve`, { note: 'not mine' }),
      await b.post(`/api/v1/alerts/${alert.id}/false-positive`, {}),
    ];
    for (const reply of refused) {
      expect(reply.status, reply.text).toBe(404);
      expect(isFastApiError(reply.body)).toBe(true);
    }
    expect((await b.get('/api/v1/alerts')).body.alerts).toEqual([]);
    expect((await b.get(`/api/v1/alerts?class_id=${riveraA.classId}`)).body.alerts).toEqual([]);
    expect((await b.get('/api/v1/alerts/unread')).body.unread).toBe(0);
    // Their own class still answers; a student of A is not theirs to read.
    expect((await b.get(`/api/v1/classes/${otherB.classId}/students`)).status).toBe(200);
    expect((await b.get(`/api/v1/classes/${otherB.classId}/students/${sam.id}/chats`)).status).toBe(
      403,
    );
    // Nothing changed on A's alert.
    const unchanged = await h.as(riveraA).get(`/api/v1/alerts/${alert.id}`);
    expect(unchanged.body.status).toBe('open');
    expect(unchanged.body.events.map((e: { action: string }) => e.action)).toEqual([
      'created',
      'viewed',
    ]);
    // Ids that name nothing are 404 too, never a 500.
    expect((await h.as(riveraA).get('/api/v1/classes/not-a-uuid/students')).status).toBe(404);
    expect((await h.as(riveraA).get('/api/v1/alerts/not-a-uuid')).status).toBe(404);
  });

  it('reading chats is off unless the school opts in', async () => {
    const classKey = key();
    const rivera = await teacher(classKey, 'Art 5');
    const sam = await learner(classKey, 'Art 5');
    const reply = await h
      .as(rivera)
      .get(`/api/v1/classes/${rivera.classId}/students/${sam.id}/chats`);
    expect(reply.status).toBe(403);
    expect(reply.body.detail).toContain('AYAH_TEACHERS_READ_CHATS');
  });

  it("the dashboard shows each student's week without chat text; CSV export too", async () => {
    const classKey = key();
    const rivera = await teacher(classKey, 'Maths 7B');
    const ada = await learner(classKey, 'Maths 7B', 'Ada');
    const ben = await learner(classKey, 'Maths 7B', 'Ben');
    const goal = await h.as(ada).post('/api/v1/goal', {
      subject: 'math',
      goal_type: 'problems_solved',
      target_value: 10,
    });
    expect(goal.status).toBe(201);
    await h.as(ada).post(`/api/v1/goal/${goal.body.goal._id}/progress`, { value: 4 });
    await h.as(ada).post('/api/v1/chat/send', say('What is a secret fraction question?'));

    const board = await h.as(rivera).get(`/api/v1/classes/${rivera.classId}/students`);
    expect(board.status, board.text).toBe(200);
    expect(board.body.class).toMatchObject({ name: 'Maths 7B', role: 'instructor' });
    const rows = board.body.students;
    expect(rows.map((r: { name: string }) => r.name)).toEqual(['Ada', 'Ben']);
    expect(rows[0]).toMatchObject({
      id: ada.id,
      goals: [{ subject: 'math', goal_type: 'problems_solved', target_value: 10, progress: 40 }],
      streak: 1,
      completed_this_week: 0,
      questions_this_week: 1,
      inactive_7_days: false,
    });
    expect(rows[1]).toMatchObject({ id: ben.id, goals: [], questions_this_week: 0 });
    expect(board.text).not.toContain('secret fraction');

    const csv = await h.as(rivera).get(`/api/v1/classes/${rivera.classId}/export`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.text.split('\r\n')[0]).toBe(
      'Student,Goals this week,Streak (days),Completed this week,Tutor questions this week,Last active',
    );
    expect(csv.text).toContain('Ada,math problems_solved 40%,1,0,1,');
    expect(csv.text).not.toContain('secret');
  });

  it('standalone students keep helplines and no alert; personal data is a low alert', async () => {
    const alone = await h.user('Solo');
    const reply = await h.as(alone).post('/api/v1/chat/send', say(SELF_HARM));
    expect(reply.body.response).toBe(SAFE_ANSWERS.self_harm);
    const none = await h.sql(
      sql`select count(*)::int as n from safety_alerts where student_id = ${alone.id}`,
    );
    expect(none).toEqual([{ n: 0 }]);

    const classKey = key();
    const rivera = await teacher(classKey, 'English 6');
    const kid = await learner(classKey, 'English 6');
    const personal = await h.as(kid).post('/api/v1/chat/send', say('my phone is 555-123-4567'));
    expect(personal.body.response).toBe(SAFE_ANSWERS.personal_data);
    const [alert] = (await h.as(rivera).get('/api/v1/alerts')).body.alerts;
    expect(alert).toMatchObject({ category: 'personal_data', severity: 'low' });
  });

  it('the export carries the classes and alerts; deletion removes the text and keeps the record', async () => {
    const classKey = key();
    const rivera = await teacher(classKey, 'Maths 7B');
    const sub = `s-${randomUUID()}`;
    const noor = await viaPortal(sub, { class_id: classKey, class_name: 'Portal 7B' }, 'Noor');
    // In the portal's class (not the LTI one): the alert goes to that class only.
    await h.as(noor.token).post('/api/v1/chat/send', say(SELF_HARM));
    const exported = await h.as(noor.token).get('/api/v1/auth/export');
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.classes).toEqual([
      expect.objectContaining({ name: 'Portal 7B', role: 'learner', source: 'portal' }),
    ]);
    expect(exported.body.safety_alerts).toEqual([
      expect.objectContaining({
        category: 'self_harm',
        status: 'open',
        messages: [expect.objectContaining({ message: SELF_HARM })],
      }),
    ]);
    const alertId = exported.body.safety_alerts[0].id;
    expect((await h.as(rivera).get(`/api/v1/alerts/${alertId}`)).status).toBe(404);

    const deleted = await h.request(
      'DELETE',
      '/api/v1/auth/account',
      { confirm: 'Noor' },
      {
        token: noor.token,
      },
    );
    expect(deleted.status, deleted.text).toBe(200);
    const kept = await h.as(contact).get(`/api/v1/alerts/${alertId}`);
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body).toMatchObject({
      student: { id: null, name: 'Deleted account' },
      category: 'self_harm',
      class: { name: 'Portal 7B' },
      messages: [],
    });
    expect(kept.body.events.map((e: { action: string }) => e.action)).toContain('created');
    expect(kept.text).not.toContain('kill myself');
  });
});
