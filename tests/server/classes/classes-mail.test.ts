/**
 * Alert mails come from the outbox table: a mail server that refuses shows as a failed delivery on
 * the alert, and the next sweep after the backoff — in a new process, with a new mailer, as after a
 * restart — delivers it. And a school that opts in (AYAH_TEACHERS_READ_CHATS=1) lets a class's
 * teachers read their own students' chats, and no one else's. On PGlite and PostgreSQL.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { expect, it } from 'vitest';

import { createAlertMail, retryDelayMs } from '../../../server/classes/alert-mail';
import { createClassService } from '../../../server/classes/service';
import { createGoalsService } from '../../../server/goals/service';
import { createMailer } from '../../../server/mailer';
import { createPointsLedger } from '../../../server/points/ledger';
import { describeServer, useTestServer } from '../harness';

// Port 1 refuses every connection: the mail server is down. This school lets teachers read chats.
const h = useTestServer({
  smtpUrl: 'smtp://127.0.0.1:1',
  env: () => ({ AYAH_TEACHERS_READ_CHATS: '1' }),
});

/** The classes domain's service over the test server's database, and the deps it was built from. */
function classService() {
  const deps = {
    db: h.database.db,
    config: h.config,
    mailer: null!,
    logger: h.logger,
    now: h.now,
  };
  return {
    deps,
    classes: createClassService(deps, createGoalsService(deps, createPointsLedger())),
  };
}

describeServer('alert mails when the mail server is down', () => {
  it('records the failure on the alert and retries from the table after a restart', async () => {
    const { deps, classes } = classService();
    const teacher = await h.user('Ms Rivera');
    const student = await h.user('Sam');
    for (const [user, role] of [
      [teacher, 'instructor'],
      [student, 'learner'],
    ] as const)
      await classes.joinClass({
        userId: user.id,
        source: 'lti',
        externalKey: 'c-down',
        name: 'Maths 7B',
        role,
      });

    await h.as(student).post('/api/v1/chat/send', {
      messages: [{ role: 'user', content: 'I want to end my life' }],
    });
    const [summary] = (await h.as(teacher).get('/api/v1/alerts')).body.alerts;
    let detail = (await h.as(teacher).get(`/api/v1/alerts/${summary.id}`)).body;
    for (let i = 0; i < 50 && detail.deliveries[0]?.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      detail = (await h.as(teacher).get(`/api/v1/alerts/${summary.id}`)).body;
    }
    expect(detail.deliveries).toEqual([
      expect.objectContaining({
        recipient: teacher.email,
        status: 'failed',
        attempts: 1,
        sent_at: null,
      }),
    ]);
    expect(detail.deliveries[0].last_error).toBeTruthy();

    // Another process (a new mailer writing to its outbox): nothing is due before the backoff …
    // (Inside the harness's data dir, which goes when the server closes.)
    const outboxDir = mkdtempSync(path.join(h.dataDir, 'other-outbox-'));
    const mailer = createMailer({
      smtpUrl: null,
      from: 'Ayah <a@b.c>',
      outboxDir,
      logger: h.logger,
    });
    const restarted = createAlertMail({ ...deps, mailer });
    expect(await restarted.deliverDue()).toBe(0);
    // … and after it, the mail goes out, once.
    h.advanceClock(retryDelayMs(1) + 1000);
    try {
      expect(await restarted.deliverDue()).toBe(1);
      expect(await restarted.deliverDue()).toBe(0);
    } finally {
      h.resetClock();
    }
    const files = readdirSync(outboxDir);
    expect(files).toHaveLength(1);
    const eml = readFileSync(path.join(outboxDir, files[0]!), 'utf8');
    expect(eml).toContain(`To: ${teacher.email}`);
    expect(eml).not.toContain('end my life');
    detail = (await h.as(teacher).get(`/api/v1/alerts/${summary.id}`)).body;
    expect(detail.deliveries).toEqual([
      expect.objectContaining({ status: 'sent', attempts: 2, last_error: null }),
    ]);
  });

  it("with AYAH_TEACHERS_READ_CHATS=1 a teacher reads their own students' chats, no one else's", async () => {
    const { classes } = classService();
    const join = (userId: string, externalKey: string, role: 'learner' | 'instructor') =>
      classes.joinClass({ userId, source: 'lti', externalKey, name: externalKey, role });
    const teacher = await h.user('Ms Rivera');
    const other = await h.user('Mr Chen');
    const student = await h.user('Sam');
    const { classId } = await join(teacher.id, 'c-read', 'instructor');
    const { classId: otherClass } = await join(other.id, 'c-other', 'instructor');
    await join(student.id, 'c-read', 'learner');
    await h
      .as(student)
      .post('/api/v1/chat/send', { messages: [{ role: 'user', content: 'What is 2+2?' }] });

    const read = await h.as(teacher).get(`/api/v1/classes/${classId}/students/${student.id}/chats`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.student).toEqual({ id: student.id, name: 'Sam' });
    expect(read.body.chats[0].messages[0]).toMatchObject({ role: 'user', content: 'What is 2+2?' });
    const path = `/api/v1/classes/${otherClass}/students/${student.id}/chats`;
    expect((await h.as(other).get(path)).status).toBe(404);
    expect(
      (await h.as(other).get(`/api/v1/classes/${classId}/students/${student.id}/chats`)).status,
    ).toBe(404);
    expect(
      (await h.as(student).get(`/api/v1/classes/${classId}/students/${student.id}/chats`)).status,
    ).toBe(404);
  });
});
